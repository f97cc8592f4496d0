"""AgentCI MCTS package."""
