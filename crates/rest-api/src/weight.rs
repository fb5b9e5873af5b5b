//! What a request costs against rate limits and in metering: a route's weight in compute
//! units, the OpenAPI's `x-execution-weight`.

use std::num::NonZeroU32;

/// The compute units a request costs against rate limits and in metering
/// (the OpenAPI's `x-execution-weight`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weight {
    /// The cost in compute units (at least one); as plain data, so the rate limiter and
    /// metering read it without a call.
    pub units: NonZeroU32,
}

impl Weight {
    /// `free`: 1 unit.
    pub const FREE: Weight = Weight {
        units: NonZeroU32::MIN,
    };
    /// `small`: 10 units.
    pub const SMALL: Weight = Weight::units_const(10);
    /// `medium`: 20 units.
    pub const MEDIUM: Weight = Weight::units_const(20);
    /// `large`: 50 units.
    pub const LARGE: Weight = Weight::units_const(50);
    /// `xl`: 100 units.
    pub const XL: Weight = Weight::units_const(100);
    /// `xxl`: 200 units.
    pub const XXL: Weight = Weight::units_const(200);

    const fn units_const(n: u32) -> Weight {
        match NonZeroU32::new(n) {
            Some(units) => Weight { units },
            None => Weight {
                units: NonZeroU32::MIN,
            },
        }
    }

    /// A custom weight; `None` for zero (every request costs at least one unit).
    pub fn new(units: u32) -> Option<Weight> {
        NonZeroU32::new(units).map(|units| Weight { units })
    }

    /// The weight of an OpenAPI `x-execution-weight` name (`free`, `small`, `medium`,
    /// `large`, `xl`, `xxl`).
    pub fn from_name(name: &str) -> Option<Weight> {
        Some(match name {
            "free" => Self::FREE,
            "small" => Self::SMALL,
            "medium" => Self::MEDIUM,
            "large" => Self::LARGE,
            "xl" => Self::XL,
            "xxl" => Self::XXL,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openapi_weight_names_map_to_units() {
        let units: Vec<u32> = ["free", "small", "medium", "large", "xl", "xxl"]
            .iter()
            .map(|n| Weight::from_name(n).unwrap().units.get())
            .collect();
        assert_eq!(units, [1, 10, 20, 50, 100, 200]);
        assert_eq!(Weight::from_name("huge"), None);
        assert_eq!(Weight::new(0), None);
        assert_eq!(Weight::new(7).unwrap().units.get(), 7);
    }
}
