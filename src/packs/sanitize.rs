//! The native CLI's allowlist sanitiser for imported page HTML (ammonia), to the same effect as
//! Foundry's `cleanHTML` and the module's import cleaner: no script elements, event handlers,
//! script URLs, frames, plugins, `meta`, `base`, `link` or `style` elements; formatting, classes,
//! data attributes and inline styles stay, but not a style that pins an element over the window
//! (`position: fixed`).

use super::html::css::fixed_position;

/// `html` with everything outside the allowlist removed.
pub fn sanitize(html: &str) -> String {
    ammonia::Builder::default()
        .add_generic_attributes(["class", "style"])
        .add_generic_attribute_prefixes(["data-"])
        .add_tags(["section", "figure", "figcaption", "aside"])
        .attribute_filter(|_, attribute, value| {
            if attribute == "style" && fixed_position(value) {
                None
            } else {
                Some(value.into())
            }
        })
        .clean(html)
        .to_string()
}
