"""Pages of the tournaments app, by audience: public (scoreboard, projector, check-in link,
exports), organiser (create, register, check in, seat rounds, recompute) and the table page."""
