//! aggregate
