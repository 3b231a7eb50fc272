import { pgEnum } from 'drizzle-orm/pg-core';
import { AVAILABILITIES, CHANNELS, CHAT_STATUSES, EVENT_STATUSES, EVENT_TYPES, MESSAGE_TYPES, USER_KINDS } from '@/contracts/enums';

export * from '@/contracts/enums';

export const channelEnum = pgEnum('channel', CHANNELS);
export const chatStatusEnum = pgEnum('chat_status', CHAT_STATUSES);
export const messageTypeEnum = pgEnum('message_type', MESSAGE_TYPES);
export const userKindEnum = pgEnum('user_kind', USER_KINDS);
export const availabilityEnum = pgEnum('availability', AVAILABILITIES);
export const eventTypeEnum = pgEnum('event_type', EVENT_TYPES);
export const eventStatusEnum = pgEnum('event_status', EVENT_STATUSES);
