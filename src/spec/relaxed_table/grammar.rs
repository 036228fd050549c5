//! The cell grammar of Table 5 (`tables/README.md`): a rule's text read into pieces,
//! conditions, bounds and formulas.

use super::*;
use crate::spec::cell::RuleCellError;

use rug::float::Constant;

// ---- The cell grammar ----

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Number(String),
    Symbol(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(text) | Token::Number(text) => write!(f, "`{text}`"),
            Token::Symbol(symbol) => write!(f, "`{symbol}`"),
        }
    }
}

/// Two-character symbols first, so `<=` is not read as `<` then `=`.
const SYMBOLS: [&str; 19] = [
    "<=", ">=", "==", "!=", "<", ">", "(", ")", "[", "]", ",", ";", ":", "+", "-", "*", "/", "|",
    "^",
];

fn tokenize(text: &str) -> Result<Vec<Token>, RuleCellError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && chars[i] == '.' {
                i += 1;
                if !(i < chars.len() && chars[i].is_ascii_digit()) {
                    return Err(format!(
                        "`{}` is not a number: digits must follow the `.`",
                        chars[start..i].iter().collect::<String>()
                    )
                    .into());
                }
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            tokens.push(Token::Number(chars[start..i].iter().collect()));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let symbol = SYMBOLS
                .iter()
                .find(|s| rest.starts_with(**s))
                .ok_or_else(|| format!("unexpected character `{c}`"))?;
            tokens.push(Token::Symbol(symbol));
            i += symbol.len();
        }
    }
    Ok(tokens)
}

/// Precision of the grammar's numbers: `pi` to 256 bits compares exactly with any f64.
const NUMBER_PRECISION: u32 = 256;

/// A cell being read. Messages say what was expected and what was found.
struct Parser<'a> {
    tokens: Vec<Token>,
    position: usize,
    entry: &'a Entry,
}

/// What a cell holds before linking.
enum Cell {
    Pieces(Vec<Piece>),
    Outputs(Vec<String>),
}

pub(super) fn parse_rule(entry: &Entry, text: &str) -> Result<RelaxedRule, RuleCellError> {
    let tokens = tokenize(text).map_err(|m| format!("cannot read `{text}`: {m}"))?;
    if tokens.is_empty() {
        return Err("empty rule: expected a bound such as `<= 4096 ulp`".into());
    }
    let mut parser = Parser {
        tokens,
        position: 0,
        entry,
    };
    let cell = parser
        .cell()
        .map_err(|m| format!("cannot read `{text}`: {m}"))?;
    let instruction = entry.name.to_string();
    Ok(match cell {
        Cell::Pieces(pieces) => RelaxedRule::Pieces {
            instruction,
            pieces,
        },
        Cell::Outputs(names) => RelaxedRule::PerOutput {
            instruction,
            // Placeholders naming the rows; `link_rule` puts the rows' rules in their place.
            outputs: names
                .into_iter()
                .map(|name| RelaxedRule::Pieces {
                    instruction: name,
                    pieces: Vec::new(),
                })
                .collect(),
        },
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.position).cloned();
        self.position += 1;
        token
    }

    fn at_end(&self) -> bool {
        self.position >= self.tokens.len()
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(token) => format!("found {token}"),
            None => "found the end of the rule".to_string(),
        }
    }

    fn at_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(w)) if w == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let hit = self.at_word(word);
        if hit {
            self.position += 1;
        }
        hit
    }

    fn eat_symbol(&mut self, symbol: &str) -> bool {
        let hit = matches!(self.peek(), Some(Token::Symbol(s)) if *s == symbol);
        if hit {
            self.position += 1;
        }
        hit
    }

    fn expect_symbol(&mut self, symbol: &str, context: &str) -> Result<(), RuleCellError> {
        if self.eat_symbol(symbol) {
            Ok(())
        } else {
            Err(format!("expected `{symbol}` {context}, {}", self.found()).into())
        }
    }

    fn expect_word(&mut self, word: &str, context: &str) -> Result<(), RuleCellError> {
        if self.eat_word(word) {
            Ok(())
        } else {
            Err(format!("expected `{word}` {context}, {}", self.found()).into())
        }
    }

    fn cell(&mut self) -> Result<Cell, RuleCellError> {
        if self.eat_word("outputs") {
            let mut names = Vec::new();
            loop {
                match self.next() {
                    Some(Token::Word(name)) => names.push(name),
                    _ => {
                        self.position -= 1;
                        return Err(format!(
                            "expected an instruction name after `outputs`, {}",
                            self.found()
                        )
                        .into());
                    }
                }
                if !self.eat_symbol(",") {
                    break;
                }
            }
            if !self.at_end() {
                return Err(format!("expected `,` or the end, {}", self.found()).into());
            }
            return Ok(Cell::Outputs(names));
        }
        let mut pieces = Vec::new();
        loop {
            if self.eat_word("when") {
                let condition = self.condition()?;
                self.expect_symbol(":", "after the condition")?;
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: Some(condition),
                    alternatives,
                });
            } else if self.eat_word("else") {
                self.expect_symbol(":", "after `else`")?;
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: None,
                    alternatives,
                });
                if !self.at_end() {
                    return Err(format!("`else` must be the last piece, {}", self.found()).into());
                }
                break;
            } else if pieces.is_empty() {
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: None,
                    alternatives,
                });
                if !self.at_end() {
                    return Err(format!(
                        "expected `or` or the end after a rule without `when`, {}",
                        self.found()
                    )
                    .into());
                }
                break;
            } else {
                return Err(format!("expected `when` or `else`, {}", self.found()).into());
            }
            if self.at_end() {
                break;
            }
            self.expect_symbol(";", "between pieces")?;
        }
        if pieces.last().is_some_and(|p| p.condition.is_some()) {
            return Err(
                "the last piece has a condition: end with `else: ...` so every input has a rule"
                    .into(),
            );
        }
        Ok(Cell::Pieces(pieces))
    }

    fn alternatives(&mut self) -> Result<Vec<Alternative>, RuleCellError> {
        let mut alternatives = vec![self.alternative()?];
        while self.eat_word("or") {
            alternatives.push(self.alternative()?);
        }
        let alone = |b: &Bound| matches!(b, Bound::Undefined | Bound::Unbounded);
        if alternatives.len() > 1
            && alternatives
                .iter()
                .any(|a| alone(&a.full) || alone(&a.embedded))
        {
            return Err("`undefined` and `unbounded` stand alone: no `or`".into());
        }
        Ok(alternatives)
    }

    fn alternative(&mut self) -> Result<Alternative, RuleCellError> {
        if self.eat_word("full") {
            let full = self.bound(Profile::Full)?;
            self.expect_word("embedded", "after the full-profile bound")?;
            let embedded = self.bound(Profile::Embedded)?;
            return Ok(Alternative { full, embedded });
        }
        let start = self.position;
        let full = self.bound(Profile::Full)?;
        let embedded = if matches!(full, Bound::Table(_)) {
            self.position = start;
            self.bound(Profile::Embedded)?
        } else {
            full.clone()
        };
        Ok(Alternative { full, embedded })
    }

    fn bound(&mut self, profile: Profile) -> Result<Bound, RuleCellError> {
        const FORMS: &str = "`<= N ulp`, `<= A+floor(|Kx|) ulp`, `abs <= B`, `derived FORMULA`, \
            `fma_or_mul_add`, `table`, `unbounded` or `undefined`";
        if self.eat_symbol("<=") {
            let count = self.count()?;
            if self.eat_symbol("+") {
                self.expect_word("floor", "in `<= A+floor(|Kx|) ulp`")?;
                self.expect_symbol("(", "after `floor`")?;
                self.expect_symbol("|", "in `floor(|Kx|)`")?;
                let factor = self.count()?;
                let (parameter, name) = self.parameter()?;
                self.expect_symbol("|", "in `floor(|Kx|)`")?;
                self.expect_symbol(")", "in `floor(|Kx|)`")?;
                self.expect_word("ulp", "after `floor(...)`")?;
                return Ok(Bound::UlpGrowing {
                    base: count,
                    factor,
                    parameter,
                    name,
                });
            }
            self.expect_word("ulp", "after the number of ulps")?;
            return Ok(Bound::Ulp(count));
        }
        let word = match self.peek() {
            Some(Token::Word(word)) => word.clone(),
            _ => return Err(format!("expected one of {FORMS}, {}", self.found()).into()),
        };
        self.position += 1;
        match word.as_str() {
            "abs" => {
                self.expect_symbol("<=", "after `abs`")?;
                let bound = self.number()?;
                if bound.value <= 0 {
                    return Err(format!(
                        "an absolute bound must be positive, found `{}`",
                        bound.text
                    )
                    .into());
                }
                Ok(Bound::Absolute(bound))
            }
            "derived" => Ok(Bound::Derived(self.expression()?)),
            "fma_or_mul_add" => Ok(Bound::FmaOrMulAdd),
            "table" => {
                let name = self.entry.name;
                table::builtin(profile)
                    .row(name)
                    .map(|row| Bound::Table(row.float32.clone()))
                    .ok_or_else(|| {
                        format!("`table`: `{name}` has no row in Table 3 / Table 4").into()
                    })
            }
            "unbounded" => Ok(Bound::Unbounded),
            "undefined" => Ok(Bound::Undefined),
            _ => {
                self.position -= 1;
                Err(format!("expected one of {FORMS}, {}", self.found()).into())
            }
        }
    }

    /// A number of ulps: digits with an optional decimal part (`4`, `2.5`).
    fn count(&mut self) -> Result<f64, RuleCellError> {
        match self.next() {
            Some(Token::Number(text)) => text
                .parse::<f64>()
                .map_err(|_| format!("`{text}` is not a number of ulps").into()),
            _ => {
                self.position -= 1;
                Err(format!("expected a number such as `4` or `2.5`, {}", self.found()).into())
            }
        }
    }

    /// `0.5`, `-88`, `2^-126`, `pi`, `-pi`.
    fn number(&mut self) -> Result<Number, RuleCellError> {
        let negative = self.eat_symbol("-");
        let (mut value, mut text) = if self.eat_word("pi") {
            (
                Float::with_val(NUMBER_PRECISION, Constant::Pi),
                "pi".to_string(),
            )
        } else {
            let digits = match self.next() {
                Some(Token::Number(digits)) => digits,
                _ => {
                    self.position -= 1;
                    return Err(format!(
                        "expected a number (`0.5`, `2^-126`, `pi`), {}",
                        self.found()
                    )
                    .into());
                }
            };
            if self.eat_symbol("^") {
                if digits != "2" {
                    return Err(format!(
                        "only powers of two take `^`: expected `2^N`, found `{digits}^`"
                    )
                    .into());
                }
                let negative_exponent = self.eat_symbol("-");
                let exponent = match self.next() {
                    Some(Token::Number(e)) if e.bytes().all(|b| b.is_ascii_digit()) => e,
                    _ => {
                        self.position -= 1;
                        return Err(format!(
                            "expected a whole exponent after `2^`, {}",
                            self.found()
                        )
                        .into());
                    }
                };
                let magnitude: i32 = exponent
                    .parse()
                    .ok()
                    .filter(|e| *e <= 100_000)
                    .ok_or_else(|| format!("the exponent `{exponent}` is too large"))?;
                let sign = if negative_exponent { "-" } else { "" };
                let mut value = Float::with_val(NUMBER_PRECISION, 1);
                value <<= if negative_exponent {
                    -magnitude
                } else {
                    magnitude
                };
                (value, format!("2^{sign}{exponent}"))
            } else {
                let parsed = Float::parse(&digits).map_err(|e| format!("`{digits}`: {e}"))?;
                (Float::with_val(NUMBER_PRECISION, parsed), digits)
            }
        };
        if negative {
            value = -value;
            text = format!("-{text}");
        }
        Ok(Number::new(value, text))
    }

    fn parameter(&mut self) -> Result<(usize, String), RuleCellError> {
        let parameters = self.entry.parameters;
        if let Some(Token::Word(name)) = self.peek() {
            if let Some(index) = parameters.iter().position(|p| p == name) {
                let name = name.clone();
                self.position += 1;
                return Ok((index, name));
            }
        }
        Err(format!(
            "expected a parameter of `{}` ({}), {}",
            self.entry.name,
            parameters.join(", "),
            self.found()
        )
        .into())
    }

    fn condition(&mut self) -> Result<Condition, RuleCellError> {
        let mut condition = self.conjunction()?;
        while self.eat_word("or") {
            let right = self.conjunction()?;
            condition = Condition::Or(Box::new(condition), Box::new(right));
        }
        Ok(condition)
    }

    fn conjunction(&mut self) -> Result<Condition, RuleCellError> {
        let mut condition = self.negation()?;
        while self.eat_word("and") {
            let right = self.negation()?;
            condition = Condition::And(Box::new(condition), Box::new(right));
        }
        Ok(condition)
    }

    fn negation(&mut self) -> Result<Condition, RuleCellError> {
        if self.eat_word("not") {
            return Ok(Condition::Not(Box::new(self.negation()?)));
        }
        if self.eat_symbol("(") {
            let condition = self.condition()?;
            self.expect_symbol(")", "to close the condition")?;
            return Ok(condition);
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Condition, RuleCellError> {
        let magnitude = self.eat_symbol("|");
        let (parameter, name) = self.parameter()?;
        if magnitude {
            self.expect_symbol("|", "after the parameter")?;
        }
        let operand = Operand {
            parameter,
            name,
            magnitude,
        };
        let comparisons = [
            ("<", Comparison::Less),
            ("<=", Comparison::LessEqual),
            (">", Comparison::Greater),
            (">=", Comparison::GreaterEqual),
            ("==", Comparison::Equal),
            ("!=", Comparison::NotEqual),
        ];
        for (symbol, comparison) in comparisons {
            if self.eat_symbol(symbol) {
                let bound = self.number()?;
                return Ok(Condition::Compare {
                    operand,
                    comparison,
                    bound,
                });
            }
        }
        if self.eat_word("in") {
            let open_low = if self.eat_symbol("(") {
                true
            } else if self.eat_symbol("[") {
                false
            } else {
                return Err(format!("expected `[` or `(` after `in`, {}", self.found()).into());
            };
            let low = self.number()?;
            self.expect_symbol(",", "between the interval's ends")?;
            let high = self.number()?;
            let open_high = if self.eat_symbol(")") {
                true
            } else if self.eat_symbol("]") {
                false
            } else {
                return Err(format!(
                    "expected `]` or `)` to close the interval, {}",
                    self.found()
                )
                .into());
            };
            if low.value > high.value {
                return Err(format!(
                    "the interval's ends are reversed: `{}` > `{}`",
                    low.text, high.text
                )
                .into());
            }
            return Ok(Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            });
        }
        for (word, parity) in [
            ("integer", None),
            ("odd", Some(Parity::Odd)),
            ("even", Some(Parity::Even)),
        ] {
            if self.eat_word(word) {
                return Ok(Condition::Integer { operand, parity });
            }
        }
        Err(format!(
            "expected `<`, `<=`, `>`, `>=`, `==`, `!=`, `in`, `integer`, `odd` or `even` \
             after `{}`, {}",
            operand.name,
            self.found()
        )
        .into())
    }

    fn expression(&mut self) -> Result<Formula, RuleCellError> {
        let mut left = self.product()?;
        loop {
            let instruction = if self.eat_symbol("+") {
                "OpFAdd"
            } else if self.eat_symbol("-") {
                "OpFSub"
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = operation(instruction, vec![left, right]);
        }
    }

    fn product(&mut self) -> Result<Formula, RuleCellError> {
        let mut left = self.unary()?;
        loop {
            let instruction = if self.eat_symbol("*") {
                "OpFMul"
            } else if self.eat_symbol("/") {
                "OpFDiv"
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = operation(instruction, vec![left, right]);
        }
    }

    fn unary(&mut self) -> Result<Formula, RuleCellError> {
        if self.eat_symbol("-") {
            return Ok(Formula::Negate(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Formula, RuleCellError> {
        match self.next() {
            Some(Token::Number(digits)) => {
                let value: f64 = digits
                    .parse()
                    .map_err(|_| format!("`{digits}` is not a number"))?;
                let exact = Float::with_val(
                    NUMBER_PRECISION,
                    Float::parse(&digits).map_err(|e| format!("`{digits}`: {e}"))?,
                );
                if exact != value || f64::from(value as f32) != value {
                    return Err(format!(
                        "the constant `{digits}` is not a float: formulas compute in Float32"
                    )
                    .into());
                }
                Ok(Formula::Constant {
                    value,
                    name: format!("{value}"),
                })
            }
            Some(Token::Word(word)) => {
                let constant = match word.as_str() {
                    "M_PI_F" => Some(std::f32::consts::PI),
                    "M_1_PI_F" => Some(std::f32::consts::FRAC_1_PI),
                    _ => None,
                };
                if let Some(value) = constant {
                    return Ok(Formula::Constant {
                        value: f64::from(value),
                        name: word,
                    });
                }
                if let Some(index) = self.entry.parameters.iter().position(|p| *p == word) {
                    return Ok(Formula::Parameter { index, name: word });
                }
                if let Some(callee) = catalog(&word).filter(|entry| entry.in_formulas) {
                    let arity = callee.parameters.len();
                    self.expect_symbol("(", &format!("after `{word}`"))?;
                    let mut arguments = vec![self.expression()?];
                    while self.eat_symbol(",") {
                        arguments.push(self.expression()?);
                    }
                    self.expect_symbol(")", &format!("to close `{word}(`"))?;
                    if arguments.len() != arity {
                        return Err(format!(
                            "`{word}` takes {arity} argument(s), found {}",
                            arguments.len()
                        )
                        .into());
                    }
                    return Ok(operation(&word, arguments));
                }
                let functions: Vec<&str> = CATALOG
                    .iter()
                    .filter(|entry| entry.in_formulas)
                    .map(|entry| entry.name)
                    .collect();
                self.position -= 1;
                Err(format!(
                    "unknown name `{word}` in the formula: expected a parameter ({}), \
                     `M_PI_F`, `M_1_PI_F`, a number or one of the functions {}",
                    self.entry.parameters.join(", "),
                    functions.join(", ")
                )
                .into())
            }
            Some(Token::Symbol("(")) => {
                let inner = self.expression()?;
                self.expect_symbol(")", "to close `(`")?;
                Ok(inner)
            }
            _ => {
                self.position -= 1;
                Err(format!(
                    "expected a formula (a parameter, a number, a function call), {}",
                    self.found()
                )
                .into())
            }
        }
    }
}

fn operation(instruction: &str, arguments: Vec<Formula>) -> Formula {
    Formula::Operation {
        instruction: instruction.to_string(),
        arguments,
        error: OperationError::Exact,
    }
}
