// Tasks of the offer wall (docs/product.md, "Earn: the tasks"): types, the fallback list, mapping of provider offers,
// search and filters. Pure and client-safe.

export type TaskType = "survey" | "video" | "app" | "game";

export interface Task {
  id: string;
  title: string;
  description: string;
  type: TaskType;
  /** Coins. */
  reward: number;
  /** Text such as "5 min". */
  timeToComplete: string;
  imageUrl: string | null;
  offerHash: string | null;
  /** The signed-in user finished it (for a provider offer: maybe still waiting for the provider). */
  completed: boolean;
  /** A provider offer finished in the app whose coins wait for the provider's postback. */
  pending: boolean;
}

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  survey: "Survey",
  video: "Video",
  app: "App",
  game: "Game",
};

export type TaskFilter = "all" | TaskType;

export const TASK_FILTERS: readonly { id: TaskFilter; label: string }[] = [
  { id: "all", label: "All" },
  { id: "survey", label: "Surveys" },
  { id: "video", label: "Videos" },
  { id: "app", label: "Apps" },
  { id: "game", label: "Games" },
];

export function parseTaskFilter(value: string | null): TaskFilter {
  return TASK_FILTERS.some((filter) => filter.id === value) ? (value as TaskFilter) : "all";
}

/** docs/product.md, "Earn: the tasks": a task without a known reward is worth 50 coins. */
export const DEFAULT_TASK_REWARD = 50;

/**
 * The most coins one task or postback can be worth ($100,000 at 100 coins to the dollar), far
 * inside the database's integer range: an offer above it is not listed, a postback above it is refused.
 */
export const MAX_REWARD_COINS = 10_000_000;

type FallbackTask = Omit<Task, "completed" | "pending" | "imageUrl" | "offerHash">;

/** docs/product.md, "Earn: the tasks": the 11 tasks shown when no offer provider is configured (rewards as the spec gives them; decision 051). */
export const FALLBACK_TASKS: readonly FallbackTask[] = [
  {
    id: "task-001",
    type: "survey",
    reward: 100,
    timeToComplete: "5 min",
    title: "Shopping Habits Survey",
    description: "Tell us how you shop online and in stores.",
  },
  {
    id: "task-002",
    type: "video",
    reward: 75,
    timeToComplete: "2 min",
    title: "Watch a Product Trailer",
    description: "Watch a short trailer for a new gadget.",
  },
  {
    id: "task-003",
    type: "game",
    reward: 200,
    timeToComplete: "15 min",
    title: "Reach Level 5 in Puzzle Quest",
    description: "Install Puzzle Quest and reach level 5.",
  },
  {
    id: "task-004",
    type: "app",
    reward: 150,
    timeToComplete: "10 min",
    title: "Try a Budgeting App",
    description: "Install the app and set up your first budget.",
  },
  {
    id: "task-005",
    type: "survey",
    reward: 120,
    timeToComplete: "8 min",
    title: "Travel Preferences Survey",
    description: "Share where and how you like to travel.",
  },
  {
    id: "task-006",
    type: "video",
    reward: 80,
    timeToComplete: "3 min",
    title: "Cooking Tips Video",
    description: "Watch three quick kitchen tips.",
  },
  {
    id: "task-007",
    type: "game",
    reward: 180,
    timeToComplete: "12 min",
    title: "Win 3 Matches in Word Duel",
    description: "Play Word Duel and win three matches.",
  },
  {
    id: "task-008",
    type: "app",
    reward: 250,
    timeToComplete: "15 min",
    title: "Open a Savings Account",
    description: "Sign up in a savings app and verify your email.",
  },
  {
    id: "task-009",
    type: "survey",
    reward: 160,
    timeToComplete: "10 min",
    title: "Streaming Services Survey",
    description: "Tell us which shows and services you watch.",
  },
  {
    id: "task-010",
    type: "app",
    reward: 170,
    timeToComplete: "10 min",
    title: "Try a Fitness Tracker",
    description: "Install the tracker and log one workout.",
  },
  {
    id: "task-011",
    type: "video",
    reward: 130,
    timeToComplete: "5 min",
    title: "Electric Cars Explained",
    description: "Watch a short explainer about electric cars.",
  },
];

/** A provider's offer as its API sends it (docs/product.md, "Earn: the tasks"). */
export interface ExternalOffer {
  offer_id: string | number;
  name: string;
  description?: string | null;
  type?: string | null;
  currency_value?: number | string | null;
  time_estimate?: number | string | null;
  image_url?: string | null;
  offer_hash?: string | null;
}

/** The type mapping of docs/product.md, "Earn: the tasks". */
export function mapOfferType(type: string | null | undefined): TaskType {
  switch (type) {
    case "survey":
      return "survey";
    case "video":
    case "video_to_install":
      return "video";
    case "install":
    case "app_engagement":
      return "app";
    case "game_engagement":
    case "browser_engagement":
      return "game";
    default:
      return "app";
  }
}

/** docs/product.md, "Earn: the tasks": time shown as rounded minutes (seconds / 60). */
export function minutesLabel(seconds: number | string | null | undefined): string {
  const value = Number(seconds);
  return `${Number.isFinite(value) && value > 0 ? Math.round(value / 60) : 0} min`;
}

/** An offer's reward in whole coins (currency_value, rounded down; 50 when unknown: docs/product.md, "Earn: the tasks"). */
function offerReward(offer: ExternalOffer): number {
  const value = offer.currency_value;
  const reward = value === null || value === undefined || value === "" ? Number.NaN : Math.floor(Number(value));
  return Number.isFinite(reward) && reward >= 0 ? reward : DEFAULT_TASK_REWARD;
}

/** Whether an offer can be shown and started: a name, a usable id and a reward within MAX_REWARD_COINS. */
export function isListableOffer(offer: ExternalOffer): boolean {
  return (
    Boolean(offer && offer.name) &&
    TASK_ID_PATTERN.test(String(offer.offer_id)) &&
    offerReward(offer) <= MAX_REWARD_COINS
  );
}

export function offerToTask(offer: ExternalOffer): Task {
  return {
    id: String(offer.offer_id),
    title: offer.name,
    description: offer.description ?? "",
    type: mapOfferType(offer.type),
    reward: offerReward(offer),
    timeToComplete: minutesLabel(offer.time_estimate),
    imageUrl: offer.image_url ?? null,
    offerHash: offer.offer_hash ?? null,
    completed: false,
    pending: false,
  };
}

export function fallbackTasks(): Task[] {
  return FALLBACK_TASKS.map((task) => ({ ...task, imageUrl: null, offerHash: null, completed: false, pending: false }));
}

/** The search (title or description, case-insensitive) and filter chips of docs/product.md, "Earn". */
export function filterTasks(tasks: readonly Task[], query: string, filter: TaskFilter): Task[] {
  const needle = query.trim().toLowerCase();
  return tasks.filter(
    (task) =>
      (filter === "all" || task.type === filter) &&
      (!needle || task.title.toLowerCase().includes(needle) || task.description.toLowerCase().includes(needle)),
  );
}

/**
 * "Earning Potential" (docs/product.md, "Earn"): the sum of the listed rewards still to be had, in
 * coins; a finished task (paid, or waiting for the provider) earns nothing more (decision 069).
 */
export function earningPotential(tasks: readonly Task[]): number {
  return tasks.reduce((sum, task) => (task.completed ? sum : sum + task.reward), 0);
}

/** docs/product.md, "Earn": the open tasks, then the finished ones in a "Done" group below them (decision 069). */
export function groupTasks(tasks: readonly Task[]): { open: Task[]; done: Task[] } {
  return { open: tasks.filter((task) => !task.completed), done: tasks.filter((task) => task.completed) };
}

/** A task the person started and has not completed: when Complete Task is accepted (docs/decisions/069). */
export interface TaskStart {
  /** ISO time from which the completion is accepted. */
  readyAt: string;
  /** Whole seconds until then (rounded up, so never early), 0 when it can be completed now. */
  secondsLeft: number;
}

/** The start's state from its time and the database's clock (both ISO), with the completion delay of decision 014. */
export function taskStart(startedAt: string, now: string, delayMs: number): TaskStart | null {
  const started = Date.parse(startedAt);
  const current = Date.parse(now);
  if (!Number.isFinite(started) || !Number.isFinite(current)) return null;
  const ready = started + delayMs;
  return { readyAt: new Date(ready).toISOString(), secondsLeft: Math.max(0, Math.ceil((ready - current) / 1000)) };
}

/** docs/product.md, "Home: quick tasks": Watch for video tasks, Start otherwise. */
export function taskActionLabel(task: Pick<Task, "type">): "Watch" | "Start" {
  return task.type === "video" ? "Watch" : "Start";
}

/** The type-specific requirement shown in the task dialog. */
export const TASK_REQUIREMENTS: Record<TaskType, string> = {
  survey: "Answer every question honestly. Rushed or inconsistent answers are not rewarded.",
  video: "Watch the whole video with the sound on. Skipping ahead does not count.",
  app: "Install the app and open it. Keep it installed for at least 24 hours.",
  game: "Install the game and reach the goal in the description.",
};

export const TASK_ID_PATTERN = /^[\w.:-]{1,100}$/;
