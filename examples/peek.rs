use vaultsum::vault::*;
#[tokio::main]
async fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v = Vault::open(std::path::Path::new(&a[1])).unwrap();
    let n = v.resolve_input(&a[2]).unwrap();
    let e = expand_note(&v, &n, &ExpandOptions::default(), &PlaceholderAttachments)
        .await
        .unwrap();
    println!("{}", e.text);
    eprintln!("{}", serde_json::to_string_pretty(&e.details).unwrap());
}
