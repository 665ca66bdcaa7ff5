"""Rounds entered whole: marking colours, recording a round, correcting one, keeping another
phone's round, and a scored round's reasons."""
