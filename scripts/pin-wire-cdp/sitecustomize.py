# Loaded by scripts/pin-wire.mjs for the services it pins with this patch (see
# PATCHED there), never by the product. cdp 0.9.158's DataFlow extension calls
# generated client methods (iam generate_workload_auth_token, dfworkload
# create_asset_update_request) as if they returned the parsed answer; they
# return (http, answer), so `cdp df create-deployment` and the other
# client-side compositions stop with "'tuple' object has no attribute 'get'"
# right after the token exchange. The two helpers that make those calls are
# handed a client whose methods return the answer, which is what the extension
# was written for, so the rest of each composition can be observed on the wire.
import cdpcli.extensions.df as _df
import cdpcli.extensions.workload as _workload


class _AnswerOnly(object):
    def __init__(self, client):
        self._client = client

    def __getattr__(self, name):
        method = getattr(self._client, name)

        def call(*args, **kwargs):
            result = method(*args, **kwargs)
            if isinstance(result, tuple) and len(result) == 2:
                return result[1]
            return result

        return call


def _answers(helper):
    def patched(client, *args, **kwargs):
        return helper(_AnswerOnly(client), *args, **kwargs)

    patched.__name__ = helper.__name__
    return patched


_workload.set_workload_access_token = _answers(_workload.set_workload_access_token)
_df.get_asset_update_request_crn = _answers(_df.get_asset_update_request_crn)
