"""Symbol tables (issue 4): correspondences, relative and spirit symbols, omens, roles."""
