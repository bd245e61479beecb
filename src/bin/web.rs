//! The browser entry point, built by trunk for wasm32. Natively it only points there.

#[cfg(target_arch = "wasm32")]
fn main() {
    barrierscope::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("barrierscope-web is the browser app: serve it with `trunk serve` (see the README).");
    std::process::exit(2);
}
