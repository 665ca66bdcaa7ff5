"""The data layer: models, states, the database, the statistics ledger and its queries."""
