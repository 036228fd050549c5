//! What a CSV's `shard` column means: which 1/N of the work a run did. The run walks its
//! chunks; merge checks that the shards of one run fit together.

/// Which 1/N of the work a run does: chunk k of every unit belongs to shard k mod N, so the
/// same seed gives the same shard contents on any machine, and every unit gets a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with 0 <= I < N.
    pub fn parse(text: &str) -> Option<Shard> {
        let (index, count) = text.split_once('/')?;
        let shard = Shard {
            index: index.trim().parse().ok()?,
            count: count.trim().parse().ok()?,
        };
        (shard.count > 0 && shard.index < shard.count).then_some(shard)
    }

    /// This shard's chunks among `chunk_count` (k mod N == I), walked lazily: a sweep of 2^40
    /// inputs must not list its chunk numbers before the first one runs.
    pub fn chunks(&self, chunk_count: u64) -> std::iter::StepBy<std::ops::Range<u64>> {
        (self.index..chunk_count).step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
    }

    /// How many of `chunk_count` chunks [`Shard::chunks`] walks.
    pub fn chunks_owned(&self, chunk_count: u64) -> u64 {
        chunk_count.saturating_sub(self.index).div_ceil(self.count)
    }

    pub fn owns(&self, chunk: u64) -> bool {
        chunk % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
