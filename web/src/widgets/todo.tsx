/** A to-do message shown as Zulip's todo widget: tasks checked and added by anyone, the title edited by its author. */
import { useState } from 'preact/hooks';
import { EditableHeading, useWidgetSender } from './widget-parts';
import { newTaskData, strikeData, titleData, type TodoList } from './todo-data';
import './widgets.css';

export function TodoWidget({ messageId, list, me }: { messageId: number; list: TodoList; me: number }) {
  const [task, setTask] = useState('');
  const [desc, setDesc] = useState('');
  const { send, error } = useWidgetSender(messageId);
  return (
    <section class="todo-widget" aria-label={`To-do list: ${list.title}`}>
      <EditableHeading
        text={list.title}
        kind="todo-title"
        canEdit={me === list.authorId}
        labels={{ edit: 'Edit title', input: 'To-do list title' }}
        save={(value) => send(titleData(list, me, value))}
      />
      <ul class="todo-tasks">
        {list.tasks.map((t) => (
          <li key={t.key} class={t.completed ? 'todo-task done' : 'todo-task'} data-task={t.task}>
            <label>
              <input
                type="checkbox"
                checked={t.completed}
                onChange={() => void send(strikeData(t.key), { optimistic: true })}
              />
              <strong class="todo-task-name">{t.task}</strong>
              {t.desc && <span class="todo-task-desc">: {t.desc}</span>}
            </label>
          </li>
        ))}
      </ul>
      <form
        class="poll-add"
        onSubmit={(e) => {
          e.preventDefault();
          void send(newTaskData(list, me, task, desc)).then((ok) => {
            if (!ok) return;
            setTask('');
            setDesc('');
          });
        }}
      >
        <input
          class="todo-task-input"
          aria-label="New task"
          placeholder="New task"
          value={task}
          onInput={(e) => setTask(e.currentTarget.value)}
        />
        <input
          class="todo-desc-input"
          aria-label="New task's description"
          placeholder="Description"
          value={desc}
          onInput={(e) => setDesc(e.currentTarget.value)}
        />
        <button type="submit" disabled={!task.trim()}>
          Add task
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
