"""Learners measured against each other (issue 40): the rating and contests."""
