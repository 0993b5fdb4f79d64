//! Command line (SPEC §7).
pub fn main() -> i32 {
    0
}
