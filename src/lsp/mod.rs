//! Language server (SPEC §8). OWNER: helper "lsp".
