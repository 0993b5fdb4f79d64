//! Language server (SPEC §8). OWNER: helper "lsp".
pub async fn serve_stdio() {
    unimplemented!()
}
