"""The game itself: starting it, its scoreboard, sharing it, the table display and its export."""
