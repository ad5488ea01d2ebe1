"""The live scoreboard (``pegboard web``): the game in progress and the finished games, served
read-only to browsers on the local network. See docs/web.md."""
