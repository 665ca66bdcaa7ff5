"""What entering a round shares, whole or live: the round form and its seat parts, the page
it is shown on, the switch between quick entry and every card, and the conflict view when
another phone got there first."""
