"""Rule tables (issue 4): branch and stem relations, stages, strength, spirits, generals."""
