//! What a plan will change, in the words shown before the question and by a dry run: one
//! group per agent (or per database), its first items and the count of all of them.

use serde::Serialize;

/// One change, or one target left alone with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    /// What happens: `delete`, `archive`, `patch`, `remove`, `import`, `repair`, or for a
    /// target left alone its result (`missing`, `conflict`, `refused`, `unchanged`).
    pub action: String,
    /// The session key, file or finding it happens to.
    pub target: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Whether this item is a change (left-alone targets are listed but change nothing).
    pub changes: bool,
}

impl PlanItem {
    pub fn change(action: &str, target: impl Into<String>, detail: Option<String>) -> Self {
        PlanItem {
            action: action.to_string(),
            target: target.into(),
            detail,
            changes: true,
        }
    }

    pub fn left_alone(result: &str, target: impl Into<String>, why: Option<String>) -> Self {
        PlanItem {
            action: result.to_string(),
            target: target.into(),
            detail: why,
            changes: false,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanGroup {
    /// The agent (or `None` for the state dir as a whole).
    pub agent_id: Option<String>,
    /// The first items, at most the summary's limit.
    pub items: Vec<PlanItem>,
    /// All items of the group, shown or not.
    pub total: usize,
    /// Changes among them.
    pub changes: usize,
}

impl PlanGroup {
    pub fn new(agent_id: Option<String>) -> Self {
        PlanGroup {
            agent_id,
            ..Default::default()
        }
    }

    /// Count an item, keeping it when fewer than `limit` are kept.
    pub fn push(&mut self, item: PlanItem, limit: usize) {
        self.total += 1;
        if item.changes {
            self.changes += 1;
        }
        if self.items.len() < limit {
            self.items.push(item);
        }
    }

    /// Items counted but not kept.
    pub fn hidden(&self) -> usize {
        self.total - self.items.len()
    }
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanSummary {
    /// One sentence: what the whole plan does ("delete 3 sessions of 1 agent").
    pub headline: String,
    pub groups: Vec<PlanGroup>,
    /// Changes in every group, and outside any (a marker to write, a file to move).
    pub changes: usize,
}

impl PlanSummary {
    pub fn new(headline: impl Into<String>) -> Self {
        PlanSummary {
            headline: headline.into(),
            ..Default::default()
        }
    }

    /// Count an item in the group of `agent_id` (a new group at the end when there is none).
    pub fn push(&mut self, agent_id: Option<String>, item: PlanItem, limit: usize) {
        if item.changes {
            self.changes += 1;
        }
        let at = match self.groups.iter().position(|g| g.agent_id == agent_id) {
            Some(at) => at,
            None => {
                self.groups.push(PlanGroup::new(agent_id));
                self.groups.len() - 1
            }
        };
        self.groups[at].push(item, limit);
    }

    /// Add a group; its changes count toward the plan's.
    pub fn add(&mut self, group: PlanGroup) {
        self.changes += group.changes;
        if group.total > 0 {
            self.groups.push(group);
        }
    }
}

/// `n` and a noun, in the plural when `n` is not 1: `1 session`, `3 sessions`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_keeps_its_first_items_and_counts_all() {
        let mut g = PlanGroup::new(Some("main".into()));
        for i in 0..25 {
            g.push(PlanItem::change("delete", format!("k{i}"), None), 20);
        }
        g.push(PlanItem::left_alone("missing", "gone", None), 20);
        assert_eq!(
            (g.items.len(), g.total, g.changes, g.hidden()),
            (20, 26, 25, 6)
        );
        let mut s = PlanSummary::new("delete");
        s.add(g);
        s.add(PlanGroup::new(Some("empty".into())));
        assert_eq!((s.changes, s.groups.len()), (25, 1));
    }
}
