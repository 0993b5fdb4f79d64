//! suppress
