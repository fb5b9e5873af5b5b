//! `GET` and `POST /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the C-Chain: the atomic
//! UTXOs of a set of addresses, those the X- or P-Chain exported to the C-Chain (until it imports
//! them) and those it exported to them (until they import them). The X-Chain history and the
//! P-Chain each page their half past the token's position; the merge serves nothing past what
//! both examined (`snowline_query::merge_pages`), so paging visits every UTXO once. `assetId`
//! applies to the X-Chain only (the spec): checked, then ignored.

use snowline_chain_p::pages::{PUtxo, Position};
use snowline_chain_x::history::{HistoryUtxo, UtxoPosition};
use snowline_query::{FilteredPage, PositionReader, PositionWriter, merge_pages};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;
use snowline_types::rest::{ListUtxosResponse, PrimaryChainInfo};

use super::context::CChainApi;
use crate::address_params::UtxoParams;
use crate::params::invalid_token;
use crate::{pchain, xchain};

/// A UTXO of the merged listing, from the chain that holds its record.
pub(crate) enum SharedUtxo {
    /// Shared between the X- and the C-Chain.
    X(HistoryUtxo),
    /// Shared between the P- and the C-Chain.
    P(PUtxo),
}

pub(crate) fn handle(
    api: &CChainApi,
    req: &Request,
    params: UtxoParams,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let digest = params.digest("c-chain/utxos", api.network.name, false);
    let from = params
        .start(&api.tokens, &digest, req.now_secs())?
        .map(|bytes| read_position(&bytes))
        .transpose()?;
    let c = api.network.c_chain_id;
    let x = api
        .x
        .shared_utxos(
            &params.x_query(None),
            c,
            from.map(|(sort, utxo_id)| UtxoPosition { sort, utxo_id }),
        )
        .map_err(xchain::page_error)?;
    let p = api
        .p
        .shared_utxos(&params.p_query(), c, from)
        .map_err(pchain::page_error)?;
    let halves = vec![
        FilteredPage {
            items: x
                .utxos
                .into_iter()
                .map(|(at, u)| ((at.sort, at.utxo_id), SharedUtxo::X(u)))
                .collect(),
            next: x.next.map(|at| (at.sort, at.utxo_id)),
        },
        FilteredPage {
            items: p
                .utxos
                .into_iter()
                .map(|(at, u)| (at, SharedUtxo::P(u)))
                .collect(),
            next: p.next,
        },
    ];
    let page = merge_pages(halves, params.page_size, params.sort);
    Reply::json(&ListUtxosResponse {
        next_page_token: page
            .next
            .map(|at| api.tokens.encode(&digest, &write_position(at), None)),
        utxos: page
            .items
            .iter()
            .map(|(_, u)| api.utxo_record(u, &x.assets))
            .collect(),
        chain_info,
    })
}

/// A position of the merged listing (sort value, UTXO id) as page-token bytes.
pub(crate) fn write_position((sort, id): Position) -> Vec<u8> {
    let mut w = PositionWriter::new();
    w.u64(sort).bytes32(&id.0);
    w.into_bytes()
}

/// Page-token bytes back to a position; bytes of another shape are an invalid token.
pub(crate) fn read_position(bytes: &[u8]) -> Result<Position, ApiError> {
    let mut r = PositionReader::new(bytes);
    let sort = r.u64().map_err(|_| invalid_token())?;
    let id = Id(r.bytes32().map_err(|_| invalid_token())?);
    r.finish().map_err(|_| invalid_token())?;
    Ok((sort, id))
}
