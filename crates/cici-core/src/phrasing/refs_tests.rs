//! A ticket's topic. That every spelling of a slot and of a ticket reads
//! back as it is `tests/it/phrasings.rs`.

use super::*;

#[test]
fn a_topic_is_a_title_after_its_key_of_two_words_or_more() {
    assert_eq!(
        topic("eng_282", "ENG-282 SSO configuration").as_deref(),
        Some("SSO configuration")
    );
    // One word reads as a common word; a title without its key has no topic.
    assert_eq!(topic("eng_1", "ENG-1 login"), None);
    assert_eq!(topic("pay_12", "Checkout timeout bug"), None);
    assert_eq!(topic("eng_2", "Login retry loop"), None);
}
