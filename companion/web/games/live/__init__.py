"""Live play: a round entered card by card as it is played, and the page that follows it."""
