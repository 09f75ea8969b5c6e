"""The Wesnoth board game (a fan rulebook adapting The Battle for Wesnoth) on Wesnoth's own units and maps."""
