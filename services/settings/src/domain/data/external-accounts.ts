/** Zulip's default external-account profile field kinds (zerver/lib/external_accounts.py), as clients read them. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<
  string,
  { text: string; url_pattern: string; name: string; hint: string }
> = {
  behance: { text: 'Behance', url_pattern: 'https://www.behance.net/%(username)s', name: 'Behance username', hint: '' },
  bitbucket: {
    text: 'Bitbucket',
    url_pattern: 'https://bitbucket.org/%(username)s',
    name: 'Bitbucket username',
    hint: '',
  },
  bluesky: { text: 'Bluesky', url_pattern: 'https://bsky.app/profile/%(username)s', name: 'Bluesky handle', hint: '' },
  codeberg: { text: 'Codeberg', url_pattern: 'https://codeberg.org/%(username)s', name: 'Codeberg username', hint: '' },
  discord: { text: 'Discord', url_pattern: '', name: 'Discord tag', hint: '' },
  dribbble: { text: 'Dribbble', url_pattern: 'https://dribbble.com/%(username)s', name: 'Dribbble username', hint: '' },
  facebook: {
    text: 'Facebook',
    url_pattern: 'https://www.facebook.com/%(username)s',
    name: 'Facebook username',
    hint: '',
  },
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
  gitlab: { text: 'GitLab', url_pattern: 'https://gitlab.com/%(username)s', name: 'GitLab username', hint: '' },
  instagram: {
    text: 'Instagram',
    url_pattern: 'https://www.instagram.com/%(username)s',
    name: 'Instagram username',
    hint: '',
  },
  linkedin: {
    text: 'LinkedIn',
    url_pattern: 'https://www.linkedin.com/in/%(username)s',
    name: 'LinkedIn profile name',
    hint: '',
  },
  mastodon: {
    text: 'Mastodon',
    url_pattern: '%(username)s',
    name: 'Mastodon profile',
    hint: 'The full URL to your profile',
  },
  medium: { text: 'Medium', url_pattern: 'https://%(username)s.medium.com', name: 'Medium username', hint: '' },
  pinterest: {
    text: 'Pinterest',
    url_pattern: 'https://www.pinterest.com/%(username)s',
    name: 'Pinterest username',
    hint: '',
  },
  reddit: {
    text: 'Reddit',
    url_pattern: 'https://www.reddit.com/user/%(username)s',
    name: 'Reddit username',
    hint: '',
  },
  snapchat: {
    text: 'Snapchat',
    url_pattern: 'https://www.snapchat.com/@%(username)s',
    name: 'Snapchat username',
    hint: '',
  },
  threads: {
    text: 'Threads',
    url_pattern: 'https://www.threads.com/@%(username)s',
    name: 'Threads username',
    hint: '',
  },
  tiktok: { text: 'TikTok', url_pattern: 'https://www.tiktok.com/@%(username)s', name: 'TikTok username', hint: '' },
  twitch: { text: 'Twitch', url_pattern: 'https://www.twitch.tv/%(username)s', name: 'Twitch username', hint: '' },
  x: { text: 'X', url_pattern: 'https://x.com/%(username)s', name: 'X username', hint: '' },
  youtube: { text: 'YouTube', url_pattern: 'https://www.youtube.com/%(username)s', name: 'YouTube handle', hint: '' },
};
