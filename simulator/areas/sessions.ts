// Simulated terminal: the sessions it holds (issue 25 §4; contract/sessions.ts).
// A session is named by its random Id, never by its token. A token signed out
// here is remembered (the last ENDED_TOKENS_KEPT) so that its next call
// answers 40104 once (../sessions.ts), then it is unknown (10002).
import { ENDED_TOKENS_KEPT } from '../../contract/sessions.ts';
import { refuse, type CallImpl } from '../types.ts';
import { deviceTime } from '../clock.ts';

export const handlers: Record<string, CallImpl> = {
  SetSessionList: {
    handle(ctx) {
      const at = (ms: number) => deviceTime(ctx, ms);
      const live = [...ctx.sessions.values()].filter((s) => ctx.now() - s.lastUsed <= ctx.idleMs());
      return { List: live.map((s) => ({ Id: s.id, User: s.user, Address: s.peer, Since: at(s.since), LastActive: at(s.lastUsed), Current: s === ctx.session ? 1 : 0 })) };
    },
  },
  GetSessionLogout: {
    handle(ctx, p) {
      const s = [...ctx.sessions.values()].find((x) => x.id === p.Id) ?? refuse(10005, { field: 'Id' });
      ctx.sessions.delete(s.token);
      ctx.ended.add(s.token);
      for (const t of ctx.ended) if (ctx.ended.size > ENDED_TOKENS_KEPT) ctx.ended.delete(t);
      return {};
    },
  },
};
