use ajedrecista_mk61::{AngleUnit, Calculator};
use std::time::Instant;
fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |a| a.parse().unwrap());
    let mut c = Calculator::new(AngleUnit::Radians);
    let t = Instant::now();
    c.run_macro_steps(n);
    let e = t.elapsed();
    println!("{:.0} macro-steps/s", f64::from(n) / e.as_secs_f64());
}
