use super::*;

const NOTE: &str = "# Budget meeting\n\n\
Ana Lopez presented the budget: 4.000 EUR for the offsite, 12% over last year.\n\
The offsite is on 2026-05-03 at 15:30 in Lisbon. Ana's team owns the venue.\n\
See [[Venues]] and ![[Catering#Menu]]; the quote was \"cheaper than Porto\".\n\
Run `make offsite` and read https://example.org/offsite.\n\
It takes 3 days.\n";

fn unsupported(answer: &str) -> Vec<(String, Reason)> {
    check(answer, NOTE)
        .unsupported
        .into_iter()
        .map(|u| (u.fact.text, u.reason))
        .collect()
}

#[test]
fn a_faithful_answer_in_other_forms_is_supported() {
    let answer = "### Key Points\n\n\
- **Ana Lopez** presented a budget of €4,000 (12 percent over last year).\n\
- Offsite on 3 May 2026, 3:30 pm, in **Lisbon**; Ana's team owns the venue.\n\
- Venues: [[Venues]], menu in [[Catering#Menu]]; \"cheaper than Porto\".\n\
- Run `make offsite`, see <https://example.org/offsite>. It takes 3 days.\n";
    assert_eq!(unsupported(answer), []);
    assert_eq!(check(answer, NOTE).entity_precision(), Some(1.0));
}

#[test]
fn changed_digits_are_caught() {
    assert_eq!(
        unsupported("- A budget of 4,200 EUR."),
        [("4,200 EUR".to_string(), Reason::NotInSource)]
    );
}

#[test]
fn a_swapped_person_is_caught_also_at_a_sentence_start() {
    assert_eq!(
        unsupported("- Luis presented the budget."),
        [("Luis".to_string(), Reason::NotInSource)]
    );
    assert_eq!(
        unsupported("- The budget came from Ana Garcia."),
        [("Ana Garcia".to_string(), Reason::NotInSource)]
    );
}

#[test]
fn a_date_a_month_off_is_caught() {
    assert_eq!(
        unsupported("- Offsite on June 3, 2026."),
        [("June 3, 2026".to_string(), Reason::NoSuchDate)]
    );
    assert_eq!(unsupported("- Offsite in May 2026."), []);
}

#[test]
fn a_percentage_from_nowhere_and_a_number_as_a_percentage_are_caught() {
    assert_eq!(
        unsupported("- It rose 37%."),
        [("37%".to_string(), Reason::NotInSource)]
    );
    assert_eq!(
        unsupported("- 3% of the team."),
        [("3%".to_string(), Reason::NotAPercentageInSource)]
    );
}

#[test]
fn a_unit_or_a_currency_the_source_never_gives_is_caught() {
    assert_eq!(
        unsupported("- It takes 3 weeks."),
        [("3 weeks".to_string(), Reason::OtherUnit)]
    );
    assert_eq!(
        unsupported("- $4,000 for the offsite."),
        [("$4,000".to_string(), Reason::OtherCurrency)]
    );
    assert_eq!(unsupported("- It takes 3 day."), []);
}

#[test]
fn links_urls_quotes_and_code_must_be_in_the_source() {
    assert_eq!(
        unsupported("- See [[Budget 2027]] and [[Catering#Drinks]]."),
        [
            ("[[Budget 2027]]".to_string(), Reason::NotLinkedInSource),
            ("[[Catering#Drinks]]".to_string(), Reason::NoSuchHeading),
        ]
    );
    assert_eq!(
        unsupported("- Read https://example.org/other, run `make all`, \"cheaper than Faro\"."),
        [
            ("https://example.org/other".to_string(), Reason::NotInSource),
            ("`make all`".to_string(), Reason::NotInSource),
            ("\"cheaper than Faro\"".to_string(), Reason::NotInSource),
            ("Faro".to_string(), Reason::NotInSource),
        ]
    );
}

#[test]
fn headings_are_checked_word_by_word_but_the_frames_words_are_not() {
    assert_eq!(
        unsupported("### Open Questions for 2027\n\n- None."),
        [("2027".to_string(), Reason::NotInSource)]
    );
    assert_eq!(
        unsupported("### Action Items from Luis\n\n- None."),
        [("Luis".to_string(), Reason::NotInSource)]
    );
    assert_eq!(unsupported("### Budget Meeting in Lisbon\n\n- None."), []);
}

#[test]
fn code_spans_match_with_whitespace_runs_squeezed() {
    let source = "| `a  b` | x |";
    assert!(check("- `a b`", source).is_supported());
    assert!(!check("- `a c`", source).is_supported());
}

#[test]
fn the_offline_engines_own_row_count_is_not_a_fact() {
    let source = "| a |\n| --- |\n| 1 |";
    assert!(check(
        "| a |\n| --- |\n| 1 |\n\n(13 more rows in the note)",
        source
    )
    .is_supported());
}

#[test]
fn names_match_across_case_accents_and_unicode_forms() {
    let source = "Met Jose\u{301} Ruiz and ZOË in Malmö.";
    assert!(check("- José Ruiz met Zoë in MALMÖ.", source).is_supported());
    assert!(check("- Met JOSE RUIZ.", source).is_supported());
}

#[test]
fn entity_precision_is_the_share_of_entities_found() {
    let result = check("- Ana paid 4,000 to Luis on May 9.", NOTE);
    // Ana, 4,000, Luis, May 9: two found.
    assert_eq!(result.entity_precision(), Some(0.5));
    assert_eq!(check("- A short note.", NOTE).entity_precision(), None);
}

#[test]
fn a_year_the_source_gives_apart_from_the_day_is_enough() {
    let source = "Planning for 2026. The launch is on May 3.";
    assert!(check("- Launch on 3 May 2026.", source).is_supported());
    assert!(!check("- Launch on 3 May 2027.", source).is_supported());
    assert!(!check("- Launch on 4 May.", source).is_supported());
}

// What an adversary found (2026-11-28), each now caught or no longer flagged.

#[test]
fn a_thousandfold_amount_is_not_supported_by_the_smaller_one() {
    let source = "The budget is 4,000 euros.";
    assert!(!check("- Budget: 4 million euros.", source).is_supported());
    assert!(!check("- Budget: €4bn.", source).is_supported());
    assert!(check("- Budget: 4 thousand euros.", source).is_supported());
}

#[test]
fn nothing_invisible_cuts_a_name_or_a_number_in_two() {
    let source = "Ana approved 4,000 euros.";
    for answer in [
        "- Approved by L\u{200b}uis G\u{ad}arcia.",
        "- Approved by L<mark></mark>uis.",
        "- Budget: 4\u{200b}000\u{200b}000 euros.",
        "- Budget: €4<mark></mark>000<mark></mark>000.",
    ] {
        let read = as_read(answer);
        assert!(
            !check(&read, source).is_supported(),
            "{answer:?} read {read:?}"
        );
    }
    assert_eq!(as_read("L<mark></mark>uis <b>x</b>"), "Luis <b>x</b>");
}

#[test]
fn a_swapped_person_is_no_inflection_of_the_one_in_the_note() {
    let source = "Fernando Ruiz approved the plan. The team reviewed it.";
    assert!(!check("Fernanda approved the budget.", source).is_supported());
    assert!(check("Reviewing went well.", source).is_supported());
}

#[test]
fn numbers_written_as_words_and_words_the_answer_writes_in_lower_case_are_no_false_flags() {
    let source = "We need three weeks for the migration, and half of the budget.";
    assert!(check("- Migration: 3 weeks, 50% of the budget.", source).is_supported());
    assert!(check("- Total: the total is in the note.", "No figures here.").is_supported());
}
