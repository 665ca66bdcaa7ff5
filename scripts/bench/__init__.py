"""The parts of ``scripts/benchmark.py``, one measure or concern a module: ``settings`` (the
budgets, the table's game, the paths), ``databases`` (the throwaway histories), ``servers``
(gunicorn and plain HTTP), ``table_game`` (the games played through the API), ``load``
(throughput and latency under load), ``in_process`` (SQL statements, page weights and
conditional requests, in this process), ``stylesheet`` (what the stylesheet weighs and what a
page may use of it) and ``report`` (the tables and the budgets).

Standard library only at import: ``scripts/benchmark.py`` imports them before it runs again
with the virtual environment's Python; what needs the app imports it where it is used.
"""
