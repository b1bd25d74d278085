"""Pass-and-play: two people sharing one screen."""
