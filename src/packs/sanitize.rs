//! The native CLI's allowlist sanitiser for imported page HTML (ammonia), to the same effect as
//! Foundry's `cleanHTML`: no script elements, event handlers, script URLs, frames or plugins;
//! formatting, classes, inline styles and data attributes stay.

/// `html` with everything outside the allowlist removed.
pub fn sanitize(html: &str) -> String {
    ammonia::Builder::default()
        .add_generic_attributes(["class", "style"])
        .add_generic_attribute_prefixes(["data-"])
        .add_tags(["section", "figure", "figcaption", "aside"])
        .clean(html)
        .to_string()
}
