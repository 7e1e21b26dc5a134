"""Events, tables (chiếu), rounds, seating and leaderboards (see the tournaments issue)."""
