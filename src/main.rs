fn main() {
    println!("mofmu");
}
