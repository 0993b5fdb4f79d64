//! Shared test assets. Each integration test binary uses only part of them.
#![allow(dead_code)]

pub mod disclosure;
pub mod evidence;
pub mod fake_llm;
pub mod generation;
pub mod pg;
pub mod planproof;
pub mod server;
pub mod sound_store;
pub mod workspace;
