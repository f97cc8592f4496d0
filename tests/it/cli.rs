use super::common::root;
#[test]
fn placeholder_cli() {
    assert!(root().exists());
}
