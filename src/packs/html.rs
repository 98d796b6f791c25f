//! A small HTML reader for imported journal pages: finds what could run script (to report before
//! import; in Foundry the HTML then goes through `foundry.utils.cleanHTML`) and reads glossary
//! paragraphs. Pure Rust with no HTML5 parser, so it runs in wasm too; it errs on the side of
//! reporting.

/// Something in page HTML that could run script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Danger {
    /// `script`, `eventHandler`, `javascriptUrl`, `iframe`, `srcdoc`, `object`, `embed`.
    pub kind: &'static str,
    pub detail: String,
}

/// A start or end tag with its attributes (names lowercased, values entity-decoded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub end: bool,
    pub attrs: Vec<(String, String)>,
    /// Byte range of the tag in the source.
    pub span: (usize, usize),
}

/// Decodes the character references browsers decode in attribute values and text.
pub fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map(|e| e + 1)
            .unwrap_or(rest.len());
        let name = &rest[1..end];
        let decoded = if let Some(num) = name.strip_prefix('#') {
            let code = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
                u32::from_str_radix(hex, 16).ok()
            } else {
                num.parse::<u32>().ok()
            };
            code.and_then(char::from_u32)
        } else {
            match name.to_ascii_lowercase().as_str() {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                "tab" => Some('\t'),
                "newline" => Some('\n'),
                "colon" => Some(':'),
                _ => None,
            }
        };
        match decoded {
            Some(c) if !name.is_empty() => {
                out.push(c);
                rest = &rest[end..];
                if rest.starts_with(';') {
                    rest = &rest[1..];
                }
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// All tags, in order. Comments are skipped; text is not returned.
pub fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let start = i + off;
        if html[start..].starts_with("<!--") {
            i = html[start..]
                .find("-->")
                .map_or(html.len(), |e| start + e + 3);
            continue;
        }
        let mut j = start + 1;
        let end = bytes.get(j) == Some(&b'/');
        if end {
            j += 1;
        }
        let name_start = j;
        while j < bytes.len()
            && !bytes[j].is_ascii_whitespace()
            && bytes[j] != b'>'
            && bytes[j] != b'/'
        {
            j += 1;
        }
        let name = html[name_start..j].to_ascii_lowercase();
        if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
            i = start + 1;
            continue;
        }
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            let a = j;
            while j < bytes.len()
                && !bytes[j].is_ascii_whitespace()
                && !matches!(bytes[j], b'=' | b'>')
            {
                j += 1;
            }
            let attr = html[a..j].to_ascii_lowercase();
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut value = String::new();
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                match bytes.get(j) {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        let v = j + 1;
                        let close = html[v..].find(q as char).map_or(html.len(), |e| v + e);
                        value = html[v..close].to_string();
                        j = (close + 1).min(html.len());
                    }
                    _ => {
                        let v = j;
                        while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>'
                        {
                            j += 1;
                        }
                        value = html[v..j].to_string();
                    }
                }
            }
            if !attr.is_empty() {
                attrs.push((attr, decode_entities(&value)));
            }
        }
        let close = (j + 1).min(html.len());
        out.push(Tag {
            name,
            end,
            attrs,
            span: (start, close),
        });
        i = close;
    }
    out
}

/// Whether a URL runs script once the browser has normalised it: tabs, newlines and control
/// characters vanish, case does not matter (`jav&#x09;ascript:`).
pub fn is_script_url(value: &str) -> bool {
    let cleaned: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    cleaned.starts_with("javascript:")
        || cleaned.starts_with("vbscript:")
        || cleaned.starts_with("data:text/html")
}

const URL_ATTRS: [&str; 8] = [
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "data",
    "poster",
    "background",
];

/// Everything in `html` that could run script.
pub fn dangers(html: &str) -> Vec<Danger> {
    let mut out = Vec::new();
    for tag in tags(html).into_iter().filter(|t| !t.end) {
        match tag.name.as_str() {
            "script" => out.push(Danger {
                kind: "script",
                detail: "<script>".into(),
            }),
            "iframe" | "frame" | "frameset" => out.push(Danger {
                kind: "iframe",
                detail: format!("<{}>", tag.name),
            }),
            "object" | "applet" => out.push(Danger {
                kind: "object",
                detail: format!("<{}>", tag.name),
            }),
            "embed" => out.push(Danger {
                kind: "embed",
                detail: "<embed>".into(),
            }),
            _ => {}
        }
        for (name, value) in &tag.attrs {
            if name.starts_with("on") {
                out.push(Danger {
                    kind: "eventHandler",
                    detail: format!("<{} {name}>", tag.name),
                });
            } else if name == "srcdoc" {
                out.push(Danger {
                    kind: "srcdoc",
                    detail: format!("<{} srcdoc>", tag.name),
                });
            } else if URL_ATTRS.contains(&name.as_str()) && is_script_url(value) {
                out.push(Danger {
                    kind: "javascriptUrl",
                    detail: format!("<{} {name}>", tag.name),
                });
            }
        }
    }
    out
}

/// The text of an HTML fragment: tags dropped, entities decoded, white space folded.
pub fn text(html: &str) -> String {
    let mut out = String::new();
    let mut last = 0;
    for t in tags(html) {
        out.push_str(&html[last..t.span.0]);
        if matches!(t.name.as_str(), "br" | "p" | "li" | "div" | "hr") {
            out.push(' ');
        }
        last = t.span.1;
    }
    out.push_str(&html[last.min(html.len())..]);
    decode_entities(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
