"""Learners learn from each other (issue 40, first half): published solutions (``solutions``),
discussion threads (``discussions``), in-app notifications (``notifications``), the Markdown
that all three render through one sanitiser (``markup``), and their tables (``models``)."""
