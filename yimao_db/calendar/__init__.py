"""The calendar: a civil date-time read in its zone (civiltime), the moment and its
pillars (moment), the solar terms' instants (solarterms), and tyme4py as the oracle
(tymeoracle)."""
