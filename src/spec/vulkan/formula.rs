//! The formulas of the Vulkan table's "inherited from" cells, read from the table's own text
//! (`tables/vulkan/ulp_full.csv`, `inherited: FORMULA`) into an expression tree that
//! `judge::vulkan::inherited` evaluates. The formula text lives once, in the table; this is
//! its reader.
//!
//! Grammar (the notation `tables/README.md` gives, "The Vulkan cells"):
//! ```text
//! formula := expr [ "where" NAME "=" expr ]
//! expr    := term { ("+" | "-") term }
//! term    := unary { ("*" | "/") unary }
//! unary   := "-" unary | primary
//! primary := NUMBER | NAME "[" NAME "]" | NAME "(" [ expr { "," expr } ] ")" | NAME
//!          | "(" expr ")"
//! ```
//! A NAME that is an operation (`OpFMul`) standing alone is [`Expr::Operation`]: the text
//! writes cross as `OpFSub(OpFMul, OpFMul)`, by its operations, leaving the operands to
//! cross's definition. `C_pi_180` and `C_180_pi` are [`Expr::Constant`]s.

use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::{builtin_in, Profile, Requirement};
use crate::spec::vulkan::Cell;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// One node of a formula.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A decimal literal (`1.0`, `0.5`): exact in every type.
    Number(f64),
    /// `C_pi_180` or `C_180_pi`: "a correctly rounded approximation to" π/180, 180/π.
    Constant(Constant),
    /// An argument (`x`, `edge0`) or the name a `where` clause binds (`t`).
    Variable(String),
    /// `x[i]`: component `i` of vector `x` inside `sum(...)`.
    Component(String, String),
    /// `-e`: OpFNegate, exact.
    Negate(Box<Expr>),
    /// `a + b`, `a - b`, `a * b`, `a / b`: OpFAdd, OpFSub, OpFMul, OpFDiv.
    Binary(Operator, Box<Expr>, Box<Expr>),
    /// `name(arguments)`: an instruction of the table (`sin`, `inversesqrt`, `dot`), `sum`,
    /// or an operation named as the text names it (`OpFSub`).
    Call(String, Vec<Expr>),
    /// An operation named without operands (cross's `OpFMul`).
    Operation(String),
}

/// The four arithmetic operators, each a core instruction with a cell of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Add,
    Sub,
    Mul,
    Div,
}

impl Operator {
    /// The registry name of the instruction, whose Vulkan cell bounds the operator.
    pub fn instruction(self) -> &'static str {
        match self {
            Operator::Add => "OpFAdd",
            Operator::Sub => "OpFSub",
            Operator::Mul => "OpFMul",
            Operator::Div => "OpFDiv",
        }
    }

    fn symbol(self) -> char {
        match self {
            Operator::Add => '+',
            Operator::Sub => '-',
            Operator::Mul => '*',
            Operator::Div => '/',
        }
    }

    /// The operator an operation name (`OpFMul`) stands for.
    pub fn of_instruction(name: &str) -> Option<Operator> {
        [Operator::Add, Operator::Sub, Operator::Mul, Operator::Div]
            .into_iter()
            .find(|op| op.instruction() == name)
    }
}

/// The named constants of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constant {
    /// `C_pi_180`: π/180 correctly rounded.
    PiOver180,
    /// `C_180_pi`: 180/π correctly rounded.
    OneEightyOverPi,
}

/// A parsed formula: its expression and the intermediate a `where` clause defines
/// (smoothstep's `t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    pub body: Expr,
    pub binding: Option<(String, Expr)>,
}

/// The names an argument may take, in the order the registry passes arguments: smoothstep's
/// (edge0, edge1, x), mix's (x, y, a), fma's (x, y, z), pow's and fmod's (x, y).
const PARAMETER_ORDER: [&str; 6] = ["edge0", "edge1", "x", "y", "z", "a"];

impl Formula {
    /// The formula's arguments in the registry's order. Cross's `OpFSub(OpFMul, OpFMul)` names
    /// none; its operands are cross's (x, y).
    pub fn parameters(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        self.body.names(&mut names);
        if let Some((_, value)) = &self.binding {
            value.names(&mut names);
        }
        let mut parameters: Vec<&'static str> = PARAMETER_ORDER
            .into_iter()
            .filter(|p| names.iter().any(|n| n == p))
            .collect();
        if parameters.is_empty() && self.body.has_operation() {
            parameters = vec!["x", "y"];
        }
        parameters
    }

    /// Every function the formula calls (`sum` included), for checks that each is known.
    pub fn calls(&self) -> Vec<String> {
        let mut calls = Vec::new();
        self.body.calls(&mut calls);
        if let Some((_, value)) = &self.binding {
            value.calls(&mut calls);
        }
        calls
    }
}

impl Expr {
    fn names(&self, into: &mut Vec<String>) {
        match self {
            Expr::Variable(name) | Expr::Component(name, _) => into.push(name.clone()),
            Expr::Negate(e) => e.names(into),
            Expr::Binary(_, a, b) => {
                a.names(into);
                b.names(into);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.names(into)),
            Expr::Number(_) | Expr::Constant(_) | Expr::Operation(_) => {}
        }
    }

    fn calls(&self, into: &mut Vec<String>) {
        match self {
            Expr::Negate(e) => e.calls(into),
            Expr::Binary(_, a, b) => {
                a.calls(into);
                b.calls(into);
            }
            Expr::Call(name, args) => {
                into.push(name.clone());
                args.iter().for_each(|a| a.calls(into));
            }
            Expr::Operation(name) => into.push(name.clone()),
            _ => {}
        }
    }

    fn has_operation(&self) -> bool {
        match self {
            Expr::Operation(_) => true,
            Expr::Call(_, args) => args.iter().any(Expr::has_operation),
            Expr::Negate(e) => e.has_operation(),
            Expr::Binary(_, a, b) => a.has_operation() || b.has_operation(),
            _ => false,
        }
    }
}

impl fmt::Display for Expr {
    /// Fully parenthesised: for messages and the round-trip test.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Number(v) => write!(f, "{v:?}"),
            Expr::Constant(Constant::PiOver180) => write!(f, "C_pi_180"),
            Expr::Constant(Constant::OneEightyOverPi) => write!(f, "C_180_pi"),
            Expr::Variable(name) | Expr::Operation(name) => write!(f, "{name}"),
            Expr::Component(name, index) => write!(f, "{name}[{index}]"),
            Expr::Negate(e) => write!(f, "(-{e})"),
            Expr::Binary(op, a, b) => write!(f, "({a} {} {b})", op.symbol()),
            Expr::Call(name, args) => {
                let args: Vec<String> = args.iter().map(ToString::to_string).collect();
                write!(f, "{name}({})", args.join(", "))
            }
        }
    }
}

/// The functions a formula may call, by the text's name, with the registry function whose
/// Vulkan cell bounds each.
pub const FUNCTIONS: [(&str, &str); 15] = [
    ("inversesqrt", "rsqrt"),
    ("sqrt", "sqrt"),
    ("exp", "exp"),
    ("exp2", "exp2"),
    ("log", "log"),
    ("log2", "log2"),
    ("sin", "sin"),
    ("cos", "cos"),
    ("atan2", "atan2"),
    ("sinh", "sinh"),
    ("cosh", "cosh"),
    ("trunc", "trunc"),
    ("clamp", "fclamp"),
    ("dot", "OpDot"),
    ("length", "length"),
];

/// The table's formula whose text is `text` (a Vulkan cell's `inherited: TEXT`), parsed once:
/// the judge reads it for every result.
pub fn of_table(text: &str) -> Option<&'static Formula> {
    // A unit asks for its one formula at every result: the last one found on a thread is
    // compared first (its text, not hashed).
    thread_local! {
        static LAST: std::cell::Cell<Option<(&'static str, &'static Formula)>> =
            const { std::cell::Cell::new(None) };
    }
    if let Some((last_text, formula)) = LAST.get() {
        if last_text == text {
            return Some(formula);
        }
    }
    let found = table_formulas().get_key_value(text);
    if let Some((text, formula)) = found {
        LAST.set(Some((text.as_str(), formula)));
    }
    found.map(|(_, formula)| formula)
}

/// Every inherited formula of the Vulkan table, by its text, parsed once.
fn table_formulas() -> &'static HashMap<String, Formula> {
    static FORMULAS: OnceLock<HashMap<String, Formula>> = OnceLock::new();
    FORMULAS.get_or_init(|| {
        let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
        let mut formulas = HashMap::new();
        for row in &table.rows {
            for cell in [&row.float64, &row.float32, &row.float16] {
                if let Requirement::Vulkan(Cell::Inherited(text)) = cell {
                    if let Ok(formula) = parse(text) {
                        formulas.insert(text.clone(), formula);
                    }
                }
            }
        }
        formulas
    })
}

/// Reads a formula as the table writes it (after `inherited:`).
pub fn parse(text: &str) -> Result<Formula, String> {
    let (body, binding) = match text.split_once(" where ") {
        Some((body, binding)) => (body, Some(binding)),
        None => (text, None),
    };
    let body = Parser::new(body).whole()?;
    let binding = match binding {
        None => None,
        Some(binding) => {
            let (name, value) = binding
                .split_once('=')
                .ok_or_else(|| format!("`{text}`: `where` needs `NAME = EXPRESSION`"))?;
            let name = name.trim();
            if !is_name(name) {
                return Err(format!("`{text}`: `{name}` is not a name"));
            }
            Some((name.to_string(), Parser::new(value).whole()?))
        }
    };
    Ok(Formula { body, binding })
}

fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Symbol(char),
}

struct Parser {
    text: String,
    tokens: Vec<Token>,
    next: usize,
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            text: text.trim().to_string(),
            tokens: Vec::new(),
            next: 0,
        }
    }

    fn error(&self, what: &str) -> String {
        format!("cannot read formula `{}`: {what}", self.text)
    }

    fn tokenize(&mut self) -> Result<(), String> {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                let number: String = chars[start..i].iter().collect();
                let value = number
                    .parse()
                    .map_err(|_| self.error(&format!("`{number}` is not a number")))?;
                self.tokens.push(Token::Number(value));
            } else if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                self.tokens
                    .push(Token::Name(chars[start..i].iter().collect()));
            } else if "+-*/(),[]".contains(c) {
                self.tokens.push(Token::Symbol(c));
                i += 1;
            } else {
                return Err(self.error(&format!("unexpected `{c}`")));
            }
        }
        Ok(())
    }

    fn whole(mut self) -> Result<Expr, String> {
        self.tokenize()?;
        let expr = self.expr()?;
        if self.next != self.tokens.len() {
            return Err(self.error("text after the expression"));
        }
        Ok(expr)
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn eat(&mut self, symbol: char) -> bool {
        if self.peek() == Some(&Token::Symbol(symbol)) {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, symbol: char) -> Result<(), String> {
        if self.eat(symbol) {
            Ok(())
        } else {
            Err(self.error(&format!("expected `{symbol}`")))
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat('+') {
                Operator::Add
            } else if self.eat('-') {
                Operator::Sub
            } else {
                return Ok(left);
            };
            left = Expr::Binary(op, Box::new(left), Box::new(self.term()?));
        }
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat('*') {
                Operator::Mul
            } else if self.eat('/') {
                Operator::Div
            } else {
                return Ok(left);
            };
            left = Expr::Binary(op, Box::new(left), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat('-') {
            return Ok(Expr::Negate(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, String> {
        match self.peek().cloned() {
            Some(Token::Number(value)) => {
                self.next += 1;
                Ok(Expr::Number(value))
            }
            Some(Token::Symbol('(')) => {
                self.next += 1;
                let inner = self.expr()?;
                self.expect(')')?;
                Ok(inner)
            }
            Some(Token::Name(name)) => {
                self.next += 1;
                if self.eat('(') {
                    let mut args = Vec::new();
                    if !self.eat(')') {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(')') {
                                break;
                            }
                            self.expect(',')?;
                        }
                    }
                    return Ok(Expr::Call(name, args));
                }
                if self.eat('[') {
                    let Some(Token::Name(index)) = self.peek().cloned() else {
                        return Err(self.error("expected an index name after `[`"));
                    };
                    self.next += 1;
                    self.expect(']')?;
                    return Ok(Expr::Component(name, index));
                }
                Ok(match name.as_str() {
                    "C_pi_180" => Expr::Constant(Constant::PiOver180),
                    "C_180_pi" => Expr::Constant(Constant::OneEightyOverPi),
                    _ if Operator::of_instruction(&name).is_some() => Expr::Operation(name),
                    _ => Expr::Variable(name),
                })
            }
            _ => Err(self.error("expected a number, a name or `(`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::environment::{Revision, VULKAN};
    use crate::spec::table::{builtin_in, Profile, Requirement};
    use crate::spec::vulkan::Cell;

    #[test]
    fn formulas_parse_with_precedence_and_bindings() {
        let f = parse("x - y * trunc(x/y)").unwrap();
        assert_eq!(f.body.to_string(), "(x - (y * trunc((x / y))))");
        assert_eq!(f.parameters(), ["x", "y"]);
        let f = parse("(exp(x) - exp(-x)) * 0.5").unwrap();
        assert_eq!(f.body.to_string(), "((exp(x) - exp((-x))) * 0.5)");
        let f = parse(
            "t * t * (3.0 - 2.0 * t) where t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)",
        )
        .unwrap();
        assert_eq!(f.body.to_string(), "((t * t) * (3.0 - (2.0 * t)))");
        assert_eq!(f.binding.as_ref().unwrap().0, "t");
        assert_eq!(f.parameters(), ["edge0", "edge1", "x"]);
        assert_eq!(
            parse("x * (1.0 - a) + y * a").unwrap().parameters(),
            ["x", "y", "a"]
        );
        let f = parse("sum(x[i] * y[i])").unwrap();
        assert_eq!(f.body.to_string(), "sum((x[i] * y[i]))");
        assert_eq!(f.parameters(), ["x", "y"]);
        let f = parse("OpFSub(OpFMul, OpFMul)").unwrap();
        assert_eq!(f.calls(), ["OpFSub", "OpFMul", "OpFMul"]);
        assert_eq!(f.parameters(), ["x", "y"]);
        assert_eq!(
            parse("x * C_pi_180").unwrap().body,
            Expr::Binary(
                Operator::Mul,
                Box::new(Expr::Variable("x".into())),
                Box::new(Expr::Constant(Constant::PiOver180))
            )
        );
        for bad in ["x +", "sin(x", "x $ y", "(x))", "t * t where 2 = x", "x[1]"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    /// Every inherited cell of the Vulkan table, in every column.
    pub(crate) fn table_formulas() -> Vec<(String, String)> {
        let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
        let mut formulas = Vec::new();
        for row in &table.rows {
            for cell in [&row.float64, &row.float32, &row.float16] {
                if let Requirement::Vulkan(Cell::Inherited(formula)) = cell {
                    formulas.push((row.instruction.clone(), formula.clone()));
                }
            }
        }
        formulas
    }

    #[test]
    fn every_inherited_cell_of_the_table_parses() {
        let formulas = table_formulas();
        // OpDot, fmod, fma, pow, sqrt, radians, degrees, tan, asin, acos, sinh, cosh, tanh,
        // asinh, acosh, atanh, length, distance, cross, normalize, mix, smoothstep.
        assert_eq!(formulas.len(), 22 * 3);
        for (row, formula) in formulas {
            let parsed = parse(&formula).unwrap_or_else(|e| panic!("{row}: {e}"));
            assert!(!parsed.parameters().is_empty(), "{row}: `{formula}`");
        }
    }
}
