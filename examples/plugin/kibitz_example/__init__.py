"""A kibitz plugin: the game Race to 21 and the engine `random` (see README.md)."""
