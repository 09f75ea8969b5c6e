"""The Coalition's sheets: the adapter, what sides and the judge type (read), the planes' boards (draw), the
View panels and the Turn report."""
