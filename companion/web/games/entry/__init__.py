"""What entering a round shares, whole or live: the round form and the switch between quick
entry and every card (``forms``), the page it is shown on with its seat parts (``page``), and
the post sent once with what answers it besides the page: the "saved" note, the notices and
the conflict view when another phone got there first (``sending``)."""
