"""The Sticheln companion's rules, as the offline rules worker runs them."""
