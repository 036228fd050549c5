//! A unit of work named by the parent and its worker alike: which kind, function, type and
//! width, with the key a resumed CSV is matched on.

use crate::num::fp::FloatType;
use crate::report::{Kind, Status, UnitReport};
use crate::run::RunSettings;
use crate::spec::registry;
use serde::{Deserialize, Serialize};

/// One unit of work, as the parent names it to a worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitId {
    /// Accuracy of `function` for `element` at `width` against the ULP table.
    Ulp {
        function: String,
        element: FloatType,
        width: u32,
    },
    /// Accuracy of `function` for `element` at each of `widths` on the same inputs (one
    /// reference pass for all widths): one row per width, in this order
    /// ([`crate::run::ulp::run_widths`]).
    UlpWidths {
        function: String,
        element: FloatType,
        widths: Vec<u32>,
    },
    /// The edge-case rules of `function` for `element` at `width`.
    Edge {
        function: String,
        element: FloatType,
        width: u32,
    },
    /// A conversion check (`conversion::Conversion::name`); `element` is its CSV type.
    Conversion { name: String, element: FloatType },
    /// A SPIR-V extension check (`extension::ExtensionCheck::name`).
    Extension { name: String, element: FloatType },
}

impl UnitId {
    pub fn kind(&self) -> Kind {
        match self {
            UnitId::Ulp { .. } | UnitId::UlpWidths { .. } => Kind::Ulp,
            UnitId::Edge { .. } => Kind::Edge,
            UnitId::Conversion { .. } => Kind::Conversion,
            UnitId::Extension { .. } => Kind::Extension,
        }
    }

    fn parts(&self) -> (&str, FloatType, u32) {
        match self {
            UnitId::Ulp {
                function,
                element,
                width,
            }
            | UnitId::Edge {
                function,
                element,
                width,
            } => (function, *element, *width),
            // A group's first width (its rows are `rows()`).
            UnitId::UlpWidths {
                function,
                element,
                widths,
            } => (function, *element, widths.first().copied().unwrap_or(1)),
            UnitId::Conversion { name, element } | UnitId::Extension { name, element } => {
                (name, *element, 1)
            }
        }
    }

    /// The units whose rows this unit reports: a group's one per width, else itself.
    pub fn rows(&self) -> Vec<UnitId> {
        match self {
            UnitId::UlpWidths {
                function,
                element,
                widths,
            } => widths
                .iter()
                .map(|width| UnitId::Ulp {
                    function: function.clone(),
                    element: *element,
                    width: *width,
                })
                .collect(),
            other => vec![other.clone()],
        }
    }

    /// `sin float w4`, `sin float w4 (edge)`.
    pub fn label(&self) -> String {
        let (function, element, width) = self.parts();
        if let UnitId::UlpWidths { widths, .. } = self {
            let widths: Vec<String> = widths.iter().map(u32::to_string).collect();
            return format!("{function} {element} w{}", widths.join(","));
        }
        match self.kind() {
            Kind::Ulp => format!("{function} {element} w{width}"),
            kind => format!("{function} {element} w{width} ({})", kind.name()),
        }
    }

    /// The key `merge::Row::unit_key` reads back from a CSV row.
    pub fn key(&self, settings: &RunSettings) -> String {
        let (function, element, width) = self.parts();
        let profile = settings.judging_of(self.kind()).name();
        format!(
            "{}|{function}|{element}|{width}|{profile}|{}|{}",
            self.kind().name(),
            settings.build_options,
            settings.path.name()
        )
    }

    /// A row for a unit that could not report itself (its worker crashed or hung).
    pub(crate) fn lost(&self, settings: &RunSettings, status: Status, note: String) -> UnitReport {
        let (function, element, width) = self.parts();
        let entry = registry::find(function);
        UnitReport {
            kind: self.kind(),
            function: function.to_string(),
            element,
            width,
            judging: settings.judging_of(self.kind()),
            requirement: None,
            rule: String::new(),
            integer_outputs: entry
                .map(|f| f.outputs.iter().map(|o| o.is_integer()).collect())
                .unwrap_or_default(),
            stats: Default::default(),
            status,
            note,
        }
    }
}
