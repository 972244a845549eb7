-- The console reads one network's refused postbacks through postback_log_network_refused_idx, which
-- gives them in order and skips every other network's. The planner could also take
-- postback_log_refused_idx (all networks' refusals by time) and filter the network out: near the
-- same estimated cost on small tables, so the choice flipped between runs, and under one network's
-- flood that plan reads through the flood. That index only served `npm run walls -- log --refused`
-- across every network, an operator's command that can read postback_log_received_idx instead.
drop index public.postback_log_refused_idx;
