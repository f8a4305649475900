import type { User } from '../store/model';
import { avatarHue, initials } from './describe';

/** An uploaded avatar served by this server; anything on another host (Gravatar) is never loaded. */
const localAvatar = (url: string | null | undefined): string | null =>
  url && url.startsWith('/') && !url.startsWith('//') ? url : null;

/** A person's picture: their uploaded avatar, else their initials on a colour of their own (drawn here). */
export function Avatar({
  user,
  size = 32,
}: {
  user: Pick<User, 'user_id' | 'full_name' | 'avatar_url'>;
  size?: number;
}) {
  const url = localAvatar(user.avatar_url);
  const style = { width: `${size}px`, height: `${size}px` };
  if (url) return <img class="avatar" src={url} alt="" width={size} height={size} style={style} />;
  return (
    <span
      class="avatar initials"
      aria-hidden="true"
      style={{
        ...style,
        fontSize: `${Math.round(size * 0.4)}px`,
        background: `hsl(${avatarHue(user.user_id)} 45% 30%)`,
      }}
    >
      {initials(user.full_name)}
    </span>
  );
}
