/**
 * A to-do list's state from its message's submessages (the protocol of Zulip's todo widget): the first `widget`
 * submessage carries the title and the canned tasks; later ones add tasks, strike (check or uncheck) them, and
 * (from the list's author only) change the title.
 */
import { parse, widgetTypeOf, type Submessage } from './poll-data';

export interface Task {
  /** `<i>,canned` for the tasks the list was sent with, `<idx>,<sender>` for added ones. */
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoList {
  title: string;
  tasks: Task[];
  authorId: number;
}

const MAX_IDX = 1000;

/** The list a message's submessages describe, after every update in order; null if it is not a to-do list. */
export function todoOf(authorId: number, submessages: readonly Submessage[] | undefined): TodoList | null {
  if (!submessages || widgetTypeOf(submessages) !== 'todo') return null;
  const extra = (parse(submessages[0].content)?.extra_data ?? {}) as Record<string, unknown>;
  const title =
    typeof extra.task_list_title === 'string' && extra.task_list_title ? extra.task_list_title : 'Task list';
  const list: TodoList = { title, tasks: [], authorId };
  const add = (key: string, task: string, desc: string, completed: boolean) => {
    // Task names are unique: a second task of the same name is not shown.
    if (!list.tasks.some((t) => t.task === task || t.key === key)) list.tasks.push({ key, task, desc, completed });
  };
  const canned = Array.isArray(extra.tasks) ? (extra.tasks as Record<string, unknown>[]) : [];
  canned.forEach((t, i) => {
    if (typeof t?.task === 'string') add(`${i},canned`, t.task, typeof t.desc === 'string' ? t.desc : '', false);
  });
  for (const sub of submessages.slice(1)) {
    if (sub.msg_type !== 'widget') continue;
    const data = parse(sub.content);
    if (data?.type === 'new_task') {
      const { key, task, desc, completed } = data;
      if (typeof key !== 'number' || !Number.isInteger(key) || key < 0 || key > MAX_IDX) continue;
      if (typeof task !== 'string' || typeof desc !== 'string' || typeof completed !== 'boolean') continue;
      add(`${key},${sub.sender_id}`, task, desc, completed);
    } else if (data?.type === 'strike') {
      const target = list.tasks.find((t) => t.key === data.key);
      if (target) target.completed = !target.completed;
    } else if (data?.type === 'new_task_list_title') {
      if (sub.sender_id === authorId && typeof data.title === 'string') list.title = data.title;
    }
  }
  return list;
}

/** A new task from `me`, numbered after `me`'s earlier ones; null if blank or already on the list. */
export function newTaskData(
  list: TodoList,
  me: number,
  task: string,
  desc: string,
): { type: 'new_task'; key: number; task: string; desc: string; completed: false } | null {
  const name = task.trim();
  if (!name || list.tasks.some((t) => t.task === name)) return null;
  const mine = list.tasks.filter((t) => t.key.endsWith(`,${me}`)).map((t) => Number(t.key.split(',')[0]));
  return { type: 'new_task', key: Math.max(0, ...mine) + 1, task: name, desc: desc.trim(), completed: false };
}

/** Checks or unchecks a task (anyone may). */
export const strikeData = (key: string) => ({ type: 'strike' as const, key });

/** A new title, for the list's author only. */
export function titleData(
  list: TodoList,
  me: number,
  text: string,
): { type: 'new_task_list_title'; title: string } | null {
  const title = text.trim();
  return me === list.authorId && title ? { type: 'new_task_list_title', title } : null;
}
