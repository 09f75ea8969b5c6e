"""A typed row's life: what a poll reads of a seat's rows, the rows no order is read from, what becomes of each row
(``fates``: every sentence a player reads about it) and the Archive's lines about the rows that left their tables."""
