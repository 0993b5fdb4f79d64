//! Terminal rendering of reports (written by the lead).
