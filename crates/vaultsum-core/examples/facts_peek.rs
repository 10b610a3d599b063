use vaultsum_core::facts::SourceFacts;
use vaultsum_core::llm::local::{summarize, LocalOptions};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let note = std::fs::read_to_string(&args[1]).unwrap();
    let answer = if args.len() > 2 {
        std::fs::read_to_string(&args[2]).unwrap()
    } else {
        summarize(&note, &LocalOptions::default()).markdown
    };
    println!("{answer}\n-----");
    let check = SourceFacts::new(&note).check(&answer);
    for f in &check.facts {
        println!("{:?} {:?}", f.kind, f.text);
    }
    for u in &check.unsupported {
        println!(
            "UNSUPPORTED {:?} {:?} {}",
            u.fact.kind, u.fact.text, u.reason
        );
    }
}
