//! The typed request dispatcher: each request type of `lsp_types` is
//! routed to one handler that takes its parameters and returns its result
//! type, so a handler cannot answer with the wrong shape and a request
//! nobody serves is answered `MethodNotFound` in one place.

use lsp_server::{ErrorCode, Request, Response};

use super::Server;

/// Why a request was not answered.
#[derive(Debug, thiserror::Error)]
pub(super) enum Failure {
    /// The parameters do not decode as the request's.
    #[error("{0}")]
    InvalidParams(String),
    /// The request was understood but cannot be carried out (a rename to a
    /// taken name, formatting a file that does not parse).
    #[error("{0}")]
    RequestFailed(String),
}

impl Failure {
    fn code(&self) -> ErrorCode {
        match self {
            Failure::InvalidParams(_) => ErrorCode::InvalidParams,
            Failure::RequestFailed(_) => ErrorCode::RequestFailed,
        }
    }
}

/// A handler of request `R`.
pub(super) type Handler<R> = fn(
    &Server,
    <R as lsp_types::request::Request>::Params,
) -> Result<<R as lsp_types::request::Request>::Result, Failure>;

/// One request on its way to its handler.
pub(super) struct Dispatch<'s> {
    server: &'s Server,
    state: State,
}

enum State {
    /// No handler has taken the request yet.
    Pending(Request),
    Answered(Response),
}

impl<'s> Dispatch<'s> {
    pub(super) fn new(server: &'s Server, request: Request) -> Dispatch<'s> {
        Dispatch {
            server,
            state: State::Pending(request),
        }
    }

    /// Hands the request to `handler` when it is an `R`.
    pub(super) fn on<R: lsp_types::request::Request>(self, handler: Handler<R>) -> Self {
        let req = match self.state {
            State::Pending(req) if req.method == R::METHOD => req,
            state => {
                return Dispatch {
                    server: self.server,
                    state,
                }
            }
        };
        let answer = serde_json::from_value::<R::Params>(req.params)
            .map_err(|e| Failure::InvalidParams(e.to_string()))
            .and_then(|params| handler(self.server, params))
            .and_then(|result| {
                serde_json::to_value(result).map_err(|e| Failure::RequestFailed(e.to_string()))
            });
        let response = match answer {
            Ok(value) => Response::new_ok(req.id, value),
            Err(e) => Response::new_err(req.id, e.code() as i32, e.to_string()),
        };
        Dispatch {
            server: self.server,
            state: State::Answered(response),
        }
    }

    /// The answer, or `MethodNotFound` when no handler took the request.
    pub(super) fn finish(self) -> Response {
        match self.state {
            State::Answered(r) => r,
            State::Pending(req) => Response::new_err(
                req.id,
                ErrorCode::MethodNotFound as i32,
                format!("cici does not serve `{}`", req.method),
            ),
        }
    }
}
