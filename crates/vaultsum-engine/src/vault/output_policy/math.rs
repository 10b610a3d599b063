//! Math in a summary: kept when every command in it only typesets. Obsidian renders `$…$` and
//! `$$…$$` with MathJax, whose `\href` opens `http`, `https` and `file` targets and whose
//! `\style`, `\class`, `\cssId`, `\bbox` carry CSS; `\def` and friends can build any of them.
//! The rule is an allow-list of command names: a summary with one command outside it has every
//! `$` escaped, so no math forms anywhere in it, whatever reader decides where math starts.

/// Whether math may stay math in this summary.
#[derive(Debug, Clone, Copy)]
pub(super) struct MathRule {
    pub allowed: bool,
}

/// Commands that only typeset (letters, operators, fonts, spacing, environments).
const TYPESETTING: &[&str] = &[
    // Greek.
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    // Structure.
    "frac",
    "dfrac",
    "tfrac",
    "sqrt",
    "binom",
    "dbinom",
    "tbinom",
    "over",
    "choose",
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "middle",
    "begin",
    "end",
    "overline",
    "underline",
    "overbrace",
    "underbrace",
    "hat",
    "widehat",
    "tilde",
    "widetilde",
    "bar",
    "vec",
    "dot",
    "ddot",
    "acute",
    "grave",
    "check",
    "breve",
    "overrightarrow",
    "overleftarrow",
    "stackrel",
    "overset",
    "underset",
    "substack",
    "limits",
    "nolimits",
    "displaystyle",
    "textstyle",
    "scriptstyle",
    "boxed",
    "not",
    "prime",
    "operatorname",
    // Fonts and text.
    "text",
    "textrm",
    "textbf",
    "textit",
    "texttt",
    "textsf",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathtt",
    "mathcal",
    "mathbb",
    "mathfrak",
    "mathscr",
    "boldsymbol",
    "bm",
    "rm",
    "bf",
    "it",
    "tt",
    "cal",
    "mbox",
    "emph",
    // Operators and relations.
    "sum",
    "prod",
    "coprod",
    "int",
    "iint",
    "iiint",
    "oint",
    "lim",
    "liminf",
    "limsup",
    "sup",
    "inf",
    "max",
    "min",
    "arg",
    "argmax",
    "argmin",
    "det",
    "dim",
    "exp",
    "gcd",
    "hom",
    "ker",
    "log",
    "ln",
    "lg",
    "Pr",
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "coth",
    "deg",
    "mod",
    "bmod",
    "pmod",
    "times",
    "div",
    "cdot",
    "cdots",
    "ldots",
    "dots",
    "vdots",
    "ddots",
    "pm",
    "mp",
    "ast",
    "star",
    "circ",
    "bullet",
    "oplus",
    "ominus",
    "otimes",
    "oslash",
    "odot",
    "cap",
    "cup",
    "bigcap",
    "bigcup",
    "sqcup",
    "vee",
    "wedge",
    "bigvee",
    "bigwedge",
    "setminus",
    "leq",
    "le",
    "geq",
    "ge",
    "neq",
    "ne",
    "equiv",
    "approx",
    "sim",
    "simeq",
    "cong",
    "propto",
    "ll",
    "gg",
    "subset",
    "supset",
    "subseteq",
    "supseteq",
    "in",
    "notin",
    "ni",
    "mid",
    "parallel",
    "perp",
    "models",
    "vdash",
    "dashv",
    "to",
    "gets",
    "mapsto",
    "rightarrow",
    "leftarrow",
    "Rightarrow",
    "Leftarrow",
    "leftrightarrow",
    "Leftrightarrow",
    "longrightarrow",
    "longleftarrow",
    "Longrightarrow",
    "iff",
    "implies",
    "impliedby",
    "uparrow",
    "downarrow",
    "nearrow",
    "searrow",
    "hookrightarrow",
    "infty",
    "partial",
    "nabla",
    "forall",
    "exists",
    "nexists",
    "neg",
    "lnot",
    "emptyset",
    "varnothing",
    "aleph",
    "hbar",
    "ell",
    "Re",
    "Im",
    "angle",
    "triangle",
    "square",
    "lfloor",
    "rfloor",
    "lceil",
    "rceil",
    "langle",
    "rangle",
    "lvert",
    "rvert",
    "lVert",
    "rVert",
    "vert",
    "Vert",
    "backslash",
    "land",
    "lor",
    "top",
    "bot",
    "checkmark",
    "degree",
    "dagger",
    "ddagger",
    "triangleq",
    "coloneqq",
    "prec",
    "succ",
    "preceq",
    "succeq",
    "sharp",
    "flat",
    // Spacing and layout. Not `\phantom`, `\hspace`, `\vspace` (they hide or overlap text),
    // nor `\color`, `\textcolor` (white on white).
    "quad",
    "qquad",
    "space",
    "enspace",
    "thinspace",
    "negthinspace",
    "cr",
    "newline",
    "hline",
    "tag",
    "nonumber",
    "notag",
    "label",
    "ref",
    "eqref",
    "underbar",
    "smash",
    "atop",
    "colon",
    "lbrace",
    "rbrace",
    "lbrack",
    "rbrack",
    "vartriangle",
    "ce",
    "pu",
    "cancel",
    "bcancel",
    "xcancel",
    "cancelto",
];

/// Whether `name` (without its backslash) only typesets.
pub(super) fn is_typesetting(name: &str) -> bool {
    TYPESETTING.contains(&name)
}

/// The first command of `text` that is not typesetting, if any.
pub(super) fn unsafe_command(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let name_len = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
            if name_len > 0 {
                let name = &text[i + 1..i + 1 + name_len];
                if !is_typesetting(name) {
                    return Some(name);
                }
                i += 1 + name_len;
                continue;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    None
}

/// The length of a math span at the start of `rest` on this line: `$$…$$`, or `$…$` whose
/// inside neither starts nor ends with a space and which no digit follows (so `$5 and $6`
/// is not math). Spans holding what another construct could claim (code, comments,
/// wikilinks) are not taken: their `$` stay text.
pub(super) fn span(rest: &str) -> Option<usize> {
    let len = if let Some(body) = rest.strip_prefix("$$") {
        let end = body.find("$$")?;
        if end == 0 {
            return None;
        }
        end + 4
    } else {
        let body = &rest[1..];
        if body.starts_with(|c: char| c.is_whitespace() || c == '$') || body.is_empty() {
            return None;
        }
        let bytes = body.as_bytes();
        let mut end = None;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'$' => {
                    let before = body[..i].chars().next_back();
                    let after = body[i + 1..].chars().next();
                    if before.is_some_and(|c| !c.is_whitespace())
                        && !after.is_some_and(|c| c.is_ascii_digit())
                    {
                        end = Some(i);
                    }
                    break;
                }
                _ => i += 1,
            }
        }
        end? + 2
    };
    let inside = &rest[..len];
    // What would act as text, if a reader does not take the span for math, is not math here.
    let claimed = inside.contains('`')
        || inside.contains("://")
        || inside.contains("www.")
        || inside.contains("](")
        || inside.contains("%%")
        || inside.contains("[[")
        || inside.contains("]]")
        || inside.contains("::");
    (!claimed).then_some(len)
}

/// A math span as written: `<` before a letter gets a space (`a< b`, the same in TeX), so that
/// a reader who does not take the span for math sees no tag.
pub(super) fn shape(span: &str) -> String {
    let mut out = String::with_capacity(span.len() + 4);
    let mut chars = span.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '<'
            && chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?' | '%'))
        {
            out.push(' ');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_follow_the_dollar_rules() {
        assert_eq!(span("$x^2$ and"), Some(5));
        assert_eq!(span("$$\\frac{a}{b}$$"), Some(15));
        assert_eq!(span("$5 and $6"), None);
        assert_eq!(span("$ x$"), None);
        assert_eq!(span("$a `b` c$"), None);
    }

    #[test]
    fn only_typesetting_commands_pass() {
        assert_eq!(unsafe_command("\\frac{\\alpha}{2} \\leq x"), None);
        assert_eq!(unsafe_command("\\href{https://x}{y}"), Some("href"));
        assert_eq!(unsafe_command("\\style{x}"), Some("style"));
        assert_eq!(unsafe_command("\\def\\a{b}"), Some("def"));
        assert_eq!(shape("$a<b>c$"), "$a< b>c$");
    }
}
